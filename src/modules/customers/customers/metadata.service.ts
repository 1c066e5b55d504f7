import type { Executor } from '../../../db/tables.js'
import { validationFailed } from '../../../errors.js'
import { addTrace } from '../activity/index.js'
import { customerNotFound, tooManyMetadataKeys } from './customers.errors.js'
import { type CustomerAuth, loadCustomerResponse } from './customers.service.js'
import { currentMetadata, mergeMetadata } from './metadata.repository.js'
import { metadataKeyReasons } from './metadata.rules.js'
import type { MetadataPatch } from './metadata.schemas.js'

function describeChange(sets: string[], removes: string[]) {
  return [
    sets.length > 0 ? `Set: ${sets.join(', ')}` : '',
    removes.length > 0 ? `Removed: ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ')
}

/** Adds, overwrites (string value) and removes (null value) keys; returns the customer. */
export async function patchMetadata(
  db: Executor,
  auth: CustomerAuth,
  customerId: string,
  patch: MetadataPatch,
) {
  const keyReasons = metadataKeyReasons(Object.keys(patch), '')
  if (keyReasons.length > 0) throw validationFailed(keyReasons)
  const entries = Object.entries(patch)
  const sets = Object.fromEntries(entries.filter((entry): entry is [string, string] => entry[1] !== null))
  const removes = entries.filter(([, value]) => value === null).map(([key]) => key)
  return db.transaction().execute(async (trx) => {
    if (!(await mergeMetadata(trx, auth, customerId, sets, removes))) {
      const current = await currentMetadata(trx, auth, customerId)
      if (!current) throw customerNotFound()
      const added = Object.keys(sets).filter((key) => !Object.hasOwn(current, key))
      throw tooManyMetadataKeys(added)
    }
    await addTrace(trx, auth.schemaName, {
      businessId: auth.businessId,
      customerId,
      type: 'MetadataChanged',
      note: describeChange(Object.keys(sets), removes),
      source: 'System',
      userId: auth.userId,
    })
    return loadCustomerResponse(trx, auth, customerId)
  })
}
