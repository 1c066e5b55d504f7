import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { ProductParams, ProductRequest, ProductResponse } from './products.schemas.js'
import { archiveProduct, createProduct, getProduct, listProducts, updateProduct } from './products.service.js'

const TAGS = ['Products']
const ONE = SingleResult('core', ProductResponse)
const VIEW = ['Products', 'View'] as const
const MODIFY = ['Products', 'Modify'] as const

/** Products (M4): what is bought, made, stocked and sold. */
export function registerProductRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/products',
    operation(VIEW, {
      operationId: 'GetProducts',
      summary: "The business's products, archived ones included",
      description:
        '$filter and $orderby over sku, name, type, active, barcode, onHand, reorderLevel, unitPrice, dateCreated, dateModified; ' +
        '$search matches sku, name and barcode. Newest first by default.',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', ProductResponse),
      errors: [400],
    }),
    async (request) => listProducts(database, businessAuthOf(request), request.query),
  )

  app.post(
    '/api/v1/products',
    operation(MODIFY, {
      operationId: 'CreateProduct',
      summary: 'Create a product',
      description:
        'A SKU already used in this business (ignoring letter case) is a 409 sku_taken. Stock starts at 0.',
      tags: TAGS,
      body: ProductRequest,
      response: ONE,
      errors: [400, 409],
    }),
    async (request) => single('core', await createProduct(database, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/v1/products/:productId',
    operation(VIEW, {
      operationId: 'GetProduct',
      summary: 'One product with its current stock and moving-average cost',
      tags: TAGS,
      params: ProductParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getProduct(database, businessAuthOf(request), request.params.productId)),
  )

  app.put(
    '/api/v1/products/:productId',
    operation(MODIFY, {
      operationId: 'UpdateProduct',
      summary: 'Replace a product',
      description:
        'Omitted optional fields become null. active true un-archives. A product with stock history cannot become or stop being a Service (409 product_type_locked).',
      tags: TAGS,
      params: ProductParams,
      body: ProductRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updateProduct(database, businessAuthOf(request), request.params.productId, request.body),
      ),
  )

  app.delete(
    '/api/v1/products/:productId',
    operation(['Products', 'Delete'], {
      operationId: 'ArchiveProduct',
      summary: 'Archive a product',
      description:
        'Sets active false and archivedAt; the product, its ledger, BOMs and work orders stay readable. An archived product takes no stock movements and no new BOM lines.',
      tags: TAGS,
      params: ProductParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await archiveProduct(database, businessAuthOf(request), request.params.productId)),
  )
}
