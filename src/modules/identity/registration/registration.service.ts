import type { FastifyBaseLogger } from 'fastify'
import type { Transaction } from 'kysely'
import { MAIN_CLUSTER } from '../../../db/clusters.js'
import type { Database } from '../../../db/database.js'
import { isUniqueViolation, newId, shortId, slugify } from '../../../db/ids.js'
import { applyTenantMigrations, assertSchemaName } from '../../../db/migrator.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { normaliseAddress } from '../../../http/address.js'
import type { AppDeps } from '../../../platform/deps.js'
import { hashPassword, passwordPolicyReasons } from '../../../security/passwords.js'
import { sendVerificationEmail } from '../email-tokens/index.js'
import { emailTaken } from './registration.errors.js'
import * as repository from './registration.repository.js'
import type {
  AddressRequest,
  AddressResponse,
  RegisterOrganizationBusinessResponse,
  RegisterOrganizationRequest,
} from './registration.schemas.js'

export const OWNER_ROLE = 'Owner'

/** Unique names chosen by the server, not the client: a clash with one is retried, never reported. */
const NAME_CONSTRAINTS = new Set(['organizations_slug_key', 'organizations_schema_name_key'])

/** Rules the JSON schema cannot express; one reason per field. */
function ruleReasons({ user }: RegisterOrganizationRequest): Reason[] {
  const reasons = passwordPolicyReasons('user.password', user.password, user.email)
  if (user.confirmPassword !== user.password) {
    reasons.push({ field: 'user.confirmPassword', message: 'must equal password' })
  }
  if (!user.acceptedTerms)
    reasons.push({ field: 'user.acceptedTerms', message: 'the terms must be accepted' })
  return reasons
}

const blankToNull = (value: string | null | undefined) => value?.trim() || null

/** The shared address normalisation, plus the place fields only registration carries. */
function toAddress(input: AddressRequest | null | undefined): AddressResponse | null {
  const address = normaliseAddress(input)
  if (!input || !address) return null
  return {
    id: newId(),
    placeId: blankToNull(input.placeId),
    name: blankToNull(input.name),
    website: blankToNull(input.website),
    ...address,
  }
}

/** The organisation's schema, its tables and its business row, in the caller's transaction. */
async function createTenant(trx: Transaction<Tables>, database: Database, input: repository.NewOrganization) {
  await applyTenantMigrations(
    trx as unknown as Transaction<unknown>,
    input.organization.schemaName,
    database.migrations.tenant,
    database.migrations.afterTenant,
  )
  await repository.insertBusiness(trx, input.organization.schemaName, input.business)
}

/**
 * An organisation placed on another cluster than the global schema's: two transactions on two
 * servers. The schema comes first, on its cluster (a name already there is a clash, retried like
 * the others), then the global rows on the main cluster; if those fail, the schema is dropped again.
 * A crash between the two leaves a schema that no organisation names: nothing reaches it, and
 * `cartage db:status` counts it as an orphan that may be dropped.
 */
async function registerOnCluster(database: Database, input: repository.NewOrganization) {
  const clusters = database.clusters
  if (!clusters) throw new Error(`cluster ${input.organization.cluster} is not configured`)
  const tenantDb = clusters.db(input.organization.cluster)
  const schema = assertSchemaName(input.organization.schemaName)
  try {
    await tenantDb.transaction().execute(async (trx) => {
      await repository.createSchema(trx, schema)
      await createTenant(trx, database, input)
    })
  } catch (error) {
    // Another organisation's schema by that name: the same retry as a name clash in the global rows.
    if ((error as { code?: string }).code === '42P06')
      throw Object.assign(new Error(`schema ${schema} exists`), {
        code: '23505',
        constraint: 'organizations_schema_name_key',
      })
    throw error
  }
  try {
    await database.db.transaction().execute(async (trx) => {
      await repository.insertIdentity(trx, input, OWNER_ROLE, newId())
    })
  } catch (error) {
    await repository.dropTenant(tenantDb, schema).catch(() => {})
    throw error
  }
  clusters.place(schema, input.organization.cluster)
}

/**
 * Creates, in one transaction, the organisation, its schema with the tenant tables, its first
 * business, the owner and the membership. Nothing half-created survives a failure.
 */
export async function registerOrganization(
  database: Database,
  request: RegisterOrganizationRequest,
  /** Where to send the verification email from; absent = send none. */
  verification?: { deps: AppDeps; log: FastifyBaseLogger },
): Promise<RegisterOrganizationBusinessResponse> {
  const reasons = ruleReasons(request)
  if (reasons.length > 0) throw validationFailed(reasons)
  const { business: b, user: u } = request
  const email = u.email.trim()
  // Checked before hashing so a duplicate costs no argon2 work; the unique index still decides races.
  if (await repository.emailExists(database.db, email)) throw emailTaken()

  const passwordHash = await hashPassword(u.password)
  const registeredName = b.registeredName.trim()
  const displayName = (b.displayName?.trim() || registeredName).slice(0, 50)
  let slug = slugify(displayName)
  if (await repository.slugExists(database.db, slug)) slug = `${slug}-${shortId(3)}`
  const address = toAddress(b.address)
  const input: repository.NewOrganization = {
    organization: {
      id: newId(),
      slug,
      name: displayName,
      schemaName: `org_${shortId(8)}`,
      cluster: (await database.clusters?.choose()) ?? MAIN_CLUSTER,
    },
    user: {
      id: newId(),
      email,
      firstName: u.firstName.trim(),
      lastName: u.lastName.trim(),
      phoneNumber: blankToNull(u.phoneNumber),
      passwordHash,
    },
    business: {
      id: newId(),
      registeredName,
      displayName,
      registrationNumber: blankToNull(b.registrationNumber),
      email: blankToNull(b.email) ?? email,
      phoneNumber: blankToNull(b.phoneNumber),
      website: blankToNull(b.website),
      address,
      requiresOrderIntegration: b.requiresOrderIntegration ?? false,
      requiresOrderFulfillment: b.requiresOrderFulfillment ?? false,
      requiresAccountingIntegration: b.requiresAccountingIntegration ?? false,
      requiresDispatchBuilder: b.requiresDispatchBuilder ?? false,
      multipleBranches: b.multipleBranches ?? false,
      fulfillmentTypes: request.fulfillmentTypes ?? [],
      addOns: request.addOns ?? [],
    },
  }

  // Only the email index means "taken"; a slug or schema name that another registration took in the
  // meantime (random suffixes are short) gets a fresh one and the registration is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      if (input.organization.cluster === MAIN_CLUSTER)
        await database.db.transaction().execute(async (trx) => {
          await repository.insertIdentity(trx, input, OWNER_ROLE, newId())
          await createTenant(trx, database, input)
        })
      else await registerOnCluster(database, input)
      break
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      const constraint = (error as { constraint?: string }).constraint ?? ''
      if (!NAME_CONSTRAINTS.has(constraint) || attempt >= 3) throw emailTaken()
      input.organization.slug = `${slugify(displayName)}-${shortId(4)}`
      input.organization.schemaName = `org_${shortId(8)}`
    }
  }

  const { user, business } = input
  // After the commit, so the token's user exists; it never throws (a mail outage is only a warning).
  if (verification) await sendVerificationEmail(verification.deps, user, verification.log)
  return {
    id: business.id,
    registeredName: business.registeredName,
    registrationNumber: business.registrationNumber,
    displayName: business.displayName,
    phoneNumber: business.phoneNumber,
    website: business.website,
    email: business.email,
    requiresOrderIntegration: business.requiresOrderIntegration,
    requiresOrderFulfillment: business.requiresOrderFulfillment,
    requiresAccountingIntegration: business.requiresAccountingIntegration,
    requiresDispatchBuilder: business.requiresDispatchBuilder,
    billingAddress: address,
    currentUser: {
      id: user.id,
      displayName: `${user.firstName} ${user.lastName}`.trim(),
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phoneNumber: user.phoneNumber,
    },
  }
}

export async function isEmailRegistered(db: Executor, email: string | undefined) {
  if (!email?.trim()) return false
  return repository.emailExists(db, email)
}
