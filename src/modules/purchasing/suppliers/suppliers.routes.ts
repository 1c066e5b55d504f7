import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { ReorderSuggestion } from './reorder-suggestions.schemas.js'
import { listReorderSuggestions } from './reorder-suggestions.service.js'
import { GetSupplierQuery, SupplierParams, SupplierRequest, SupplierResponse } from './suppliers.schemas.js'
import {
  createSupplier,
  deleteSupplier,
  getSupplier,
  listSuppliers,
  updateSupplier,
} from './suppliers.service.js'

const TAGS = ['Suppliers']
const ONE = SingleResult('core', SupplierResponse)

/** Suppliers (module Suppliers): CRUD with contacts, addresses, currency, payment terms and lead time. */
export function registerSupplierRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  app.get(
    '/api/v1/suppliers',
    operation(['Suppliers', 'View'], {
      operationId: 'GetSuppliers',
      summary: "The business's suppliers",
      description:
        'Live (not deleted) suppliers, newest first. $filter/$orderby over code, name, email, phoneNumber, currency, paymentTerms, leadTimeDays, taxNumber, isActive, dateCreated, dateModified, metadata/<key>; $search matches name, code, email and tax number.',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', SupplierResponse),
      errors: [400],
    }),
    async (request) => listSuppliers(database.db, businessAuthOf(request), request.query),
  )
  app.get(
    '/api/v1/suppliers/reorder-suggestions',
    operation(['Suppliers', 'View'], {
      operationId: 'GetReorderSuggestions',
      summary: 'What to reorder, and from whom',
      description:
        "Active products whose stock is at or below their reorder level, by SKU, with the preferred supplier (null when the product has none), its unit cost, lead time and minimum order quantity, and a suggested quantity: max(minimumOrderQuantity, 2 x reorderLevel - onHand). Quantities already on order are not subtracted. $filter/$orderby over productId, productSku, productName, productType, onHand, reorderLevel, supplierId (null: no preferred supplier), leadTimeDays (the supplier's); $search matches the product SKU and name and the supplier's name.",
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', ReorderSuggestion),
      errors: [400],
    }),
    async (request) => listReorderSuggestions(database.db, businessAuthOf(request), request.query),
  )
  app.post(
    '/api/v1/suppliers',
    operation(['Suppliers', 'Modify'], {
      operationId: 'CreateSupplier',
      summary: 'Add a supplier',
      description:
        "Assigns the next code (SUP-000001...). currency defaults to the business's currency, paymentTerms to Net30, leadTimeDays to 0. Publishes SupplierCreated.",
      tags: TAGS,
      body: SupplierRequest,
      response: ONE,
      errors: [400],
    }),
    async (request) => single('core', await createSupplier(deps, businessAuthOf(request), request.body)),
  )
  app.get(
    '/api/v1/suppliers/:supplierId',
    operation(['Suppliers', 'View'], {
      operationId: 'GetSupplier',
      summary: 'One supplier',
      description: 'A deleted supplier is a 404 unless includeDeleted=true.',
      tags: TAGS,
      params: SupplierParams,
      querystring: GetSupplierQuery,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await getSupplier(
          database.db,
          businessAuthOf(request),
          request.params.supplierId,
          request.query.includeDeleted ?? false,
        ),
      ),
  )
  app.put(
    '/api/v1/suppliers/:supplierId',
    operation(['Suppliers', 'Modify'], {
      operationId: 'UpdateSupplier',
      summary: 'Replace a supplier',
      description:
        'Replaces every field (an omitted one is reset to its default), except currency, contacts and metadata, which are kept when omitted. A deleted supplier is a 404.',
      tags: TAGS,
      params: SupplierParams,
      body: SupplierRequest,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await updateSupplier(database.db, businessAuthOf(request), request.params.supplierId, request.body),
      ),
  )
  app.delete(
    '/api/v1/suppliers/:supplierId',
    operation(['Suppliers', 'Delete'], {
      operationId: 'DeleteSupplier',
      summary: 'Delete a supplier',
      description:
        'Soft delete: the supplier keeps its row (purchase orders still name it, GET with includeDeleted=true finds it) but leaves lists and can no longer be changed; its product terms are removed. Deleting it again is a 404.',
      tags: TAGS,
      params: SupplierParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await deleteSupplier(database.db, businessAuthOf(request), request.params.supplierId)),
  )
}
