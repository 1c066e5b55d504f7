/**
 * What other areas may use of the purchasing area; everything else in its folders is its own. The
 * dependency test (test/architecture) holds other areas to it.
 */

export {
  /** The dashboard's purchase order figures (per status, open, overdue, open value per currency); announces newly overdue orders first. */
  getPurchaseOrderFigures,
} from './purchase-orders/figures.service.js'
export {
  /** The record of those figures, as the dashboard answers it. */
  PurchaseOrderFiguresResponse,
} from './purchase-orders/purchase-orders.schemas.js'
export {
  /** A live supplier of the business (undefined: another business's, unknown or deleted); `lock: 'share'` inside a transaction. */
  findPurchasingSupplier,
  /** A live supplier as purchase orders need it: code, name, currency, payment terms, lead time, isActive. */
  type PurchasingSupplier,
  /** The preferred supplier's terms and name per product (products without one are absent). */
  preferredSuppliers,
  /** A supplier's terms for a product: SKU, unit cost, minimum order quantity, effective lead time, preferred. */
  type SupplierTerms,
  /** Code and name of suppliers by id, deleted ones included, so history still names them. */
  supplierNames,
  /** A live supplier's terms for some products, keyed by product id (no terms: absent). */
  termsForProducts,
} from './suppliers/purchasing-reads.repository.js'
export {
  /** The 404 supplier_not_found to answer when findPurchasingSupplier finds nothing. */
  supplierNotFound,
} from './suppliers/suppliers.errors.js'
