/**
 * What other areas may use of the manufacturing area; everything else in its folders is its own. The
 * dependency test (test/architecture) holds other areas to it. Stock moves only through the ledger:
 * lock the products in the caller's transaction (lockProducts: id order, so posters never deadlock),
 * then post their movements in that same transaction.
 */

export {
  /** The instant an asOfDate stands for: now, a date-time as it is, a date as the end of that day in the business's time zone. */
  asOfInstant,
} from './as-of.js'
export {
  /** 404 dimension_preset_not_found; with a field, a reason naming it (a preset referred to from a body). */
  presetNotFound,
} from './dimensions/dimensions.errors.js'
export {
  /** True when the preset is the business's, share-locking it until commit (a reference to it is being saved). */
  lockPresetForReference,
} from './dimensions/dimensions.repository.js'
export {
  /** Reads one product of the business and locks its row until commit (undefined: not the business's). */
  lockProduct,
  /** Reads and locks several products of the business in id order (those not the business's are missing). */
  lockProducts,
  /** A product as read and locked: its type, archivedAt, current stock and reorder level among the rest. */
  type ProductRow,
} from './products/products.repository.js'
export {
  /** The running values and exact unit cost (10 places) of entries of one product, by entry id. */
  entryValues,
  /** The same for entries of several products, in one statement. */
  entryValuesOfMany,
  /** What postProductMovements re-valued of a product, and its stock after its last entry. */
  type Revaluation,
  /** A product's balance, moving-average cost and value as of an instant (undefined: not the business's product). */
  stockAsOf,
} from './stock/ledger.repository.js'
export {
  /** The ledger's entry types: Receipt, Issue, Adjustment, WorkOrder*, PurchaseReceipt(Reversal), Transfer*. */
  type EntryType,
  /** One movement to post: signed quantity, the cost of a receipt (null: at the moving average), effective date. */
  type Movement,
  /** A posted entry: its id, running balance and the exact unit cost it moved at. */
  type PostedEntry,
  /** Where a posting runs: the organisation's schema, the business, the user, and the events bus. */
  type PostingScope,
  /** One product's movement in postProductMovements. */
  type ProductMovement,
  /** The PostingScope of a request (its schema, business and user) with the process's events. */
  postingScopeOf,
  /** Posts one movement of a locked product, re-values later entries; 409 stock_shortfall unless negative stock is allowed. */
  postMovement,
  /** Posts movements of several locked products, one re-valuation each, all or nothing (a shortfall names the row). */
  postProductMovements,
} from './stock/ledger.service.js'
export {
  /** The 409 stock_shortfall (date and shortfall, one reason naming the field) a posting answers. */
  stockShortfall,
} from './stock/stock.errors.js'
export {
  /** An effective date sent by a client: default now; from 1970-01-01, never in the future (400 naming the field). */
  effectiveDateOf,
} from './stock/stock-movement.rules.js'
