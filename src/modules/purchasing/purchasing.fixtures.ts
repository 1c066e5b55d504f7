import { businessSession, createApiKey, sharedOrganisation } from '../../../test/fixtures.js'
import { type Core, coreAs, type TestContext } from '../../../test/harness.js'
import { ok } from '../manufacturing/manufacturing.fixtures.js'

/**
 * A new business with its owner (bearer) and an unrestricted API key of the business, in the
 * file's shared organisation named `organisation` (`sharedOrganisation`): ask for another name
 * where the story needs another organisation.
 */
export async function purchasingSetup(ctx: TestContext, organisation = 'first') {
  const owner = await businessSession(ctx, await sharedOrganisation(ctx, organisation))
  const apiKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId)
  return { ...owner, key: coreAs(ctx, { apiKey }) }
}

export const supplierBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Acme Steel',
  email: 'sales@acme.example',
  currency: 'eur',
  paymentTerms: 'net60',
  leadTimeDays: 7,
  taxNumber: 'DE123456789',
  address: { street: 'Hafenstrasse 1', city: 'Hamburg', country: 'Germany' },
  contacts: [
    { firstName: 'Ada', lastName: 'Smith', email: 'ada@acme.example', role: 'Sales' },
    { firstName: 'Bob', isPrimary: true },
  ],
  metadata: { region: 'north' },
  notes: 'Ships Tuesdays',
  ...overrides,
})

/** A call that must answer 200, its data (the manufacturing fixtures' `ok`). */
export const call = ok

export interface Supplier {
  id: string
  code: string
  name: string
  currency: string
  leadTimeDays: number
  isActive: boolean
}

export const createSupplier = (core: Core, overrides: Record<string, unknown> = {}) =>
  call<Supplier>(core, 'POST', '/api/v1/suppliers', supplierBody(overrides))
