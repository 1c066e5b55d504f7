import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  SupplierProductParams,
  SupplierProductRequest,
  SupplierProductResponse,
} from './supplier-products.schemas.js'
import { deleteTerms, getTerms, listTerms, putTerms } from './supplier-products.service.js'
import { SupplierParams } from './suppliers.schemas.js'

const TAGS = ['Suppliers']
const ONE = SingleResult('core', SupplierProductResponse)

/** A supplier's terms per product: its SKU, unit cost, minimum order quantity, lead time, preferred flag. */
export function registerSupplierProductRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/suppliers/:supplierId/products',
    operation(['Suppliers', 'View'], {
      operationId: 'GetSupplierProducts',
      summary: "The supplier's terms per product",
      description:
        'By product SKU. $filter/$orderby over productId, productSku, productName, supplierSku, unitCost, minimumOrderQuantity, leadTimeDays, isPreferred, dateCreated, dateModified; $search matches the product SKU and name and the supplier SKU.',
      tags: TAGS,
      params: SupplierParams,
      querystring: ListQuery,
      response: PagedResult('core', SupplierProductResponse),
      errors: [400, 404],
    }),
    async (request) =>
      listTerms(database.db, businessAuthOf(request), request.params.supplierId, request.query),
  )
  app.get(
    '/api/v1/suppliers/:supplierId/products/:productId',
    operation(['Suppliers', 'View'], {
      operationId: 'GetSupplierProduct',
      summary: "The supplier's terms for one product",
      description: '404 supplier_product_not_found when the supplier has no terms for the product.',
      tags: TAGS,
      params: SupplierProductParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await getTerms(
          database.db,
          businessAuthOf(request),
          request.params.supplierId,
          request.params.productId,
        ),
      ),
  )
  app.put(
    '/api/v1/suppliers/:supplierId/products/:productId',
    operation(['Suppliers', 'Modify'], {
      operationId: 'PutSupplierProduct',
      summary: "Set the supplier's terms for a product",
      description:
        "Creates or replaces the terms. isPreferred true makes this supplier the product's preferred one and clears the previous, in one transaction (concurrent requests leave exactly one); an inactive supplier cannot be made preferred (409 supplier_inactive). A product of another business is a 404 product_not_found.",
      tags: TAGS,
      params: SupplierProductParams,
      body: SupplierProductRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await putTerms(
          database.db,
          businessAuthOf(request),
          request.params.supplierId,
          request.params.productId,
          request.body,
        ),
      ),
  )
  app.delete(
    '/api/v1/suppliers/:supplierId/products/:productId',
    operation(['Suppliers', 'Delete'], {
      operationId: 'DeleteSupplierProduct',
      summary: "Remove the supplier's terms for a product",
      description:
        'The product keeps no preferred supplier if this one was. No terms: 404 supplier_product_not_found.',
      tags: TAGS,
      params: SupplierProductParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await deleteTerms(
          database.db,
          businessAuthOf(request),
          request.params.supplierId,
          request.params.productId,
        ),
      ),
  )
}
