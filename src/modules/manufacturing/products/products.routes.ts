import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import { ProductParams, ProductRequest, ProductResponse } from './products.schemas.js'
import { archiveProduct, createProduct, getProduct, listProducts, updateProduct } from './products.service.js'

const TAGS = ['Products']
const ONE = SingleResult('core', ProductResponse)
const access = (action: 'View' | 'Modify' | 'Delete') =>
  ({ access: { permission: ['Products', action] } }) as const

/** Products (M4): what is bought, made, stocked and sold. */
export function registerProductRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/products',
    {
      config: access('View'),
      schema: {
        operationId: 'GetProducts',
        summary: "The business's products, archived ones included",
        description:
          '$filter and $orderby over sku, name, type, active, barcode, onHand, reorderLevel, unitPrice, dateCreated, dateModified; ' +
          '$search matches sku, name and barcode. Newest first by default.',
        tags: TAGS,
        security: CORE_SECURITY,
        querystring: ListQuery,
        response: { 200: PagedResult('core', ProductResponse), ...errorResponses('core', 400, 401, 403) },
      },
    },
    async (request) => listProducts(database, businessAuthOf(request), request.query),
  )

  app.post(
    '/api/v1/products',
    {
      config: access('Modify'),
      schema: {
        operationId: 'CreateProduct',
        summary: 'Create a product',
        description:
          'A SKU already used in this business (ignoring letter case) is a 409 sku_taken. Stock starts at 0.',
        tags: TAGS,
        security: CORE_SECURITY,
        body: ProductRequest,
        response: { 200: ONE, ...errorResponses('core', 400, 401, 403, 409) },
      },
    },
    async (request) => single('core', await createProduct(database, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/v1/products/:productId',
    {
      config: access('View'),
      schema: {
        operationId: 'GetProduct',
        summary: 'One product with its current stock and moving-average cost',
        tags: TAGS,
        security: CORE_SECURITY,
        params: ProductParams,
        response: { 200: ONE, ...errorResponses('core', 400, 401, 403, 404) },
      },
    },
    async (request) =>
      single('core', await getProduct(database, businessAuthOf(request), request.params.productId)),
  )

  app.put(
    '/api/v1/products/:productId',
    {
      config: access('Modify'),
      schema: {
        operationId: 'UpdateProduct',
        summary: 'Replace a product',
        description:
          'Omitted optional fields become null. active true un-archives. A product with stock history cannot become or stop being a Service (409 product_type_locked).',
        tags: TAGS,
        security: CORE_SECURITY,
        params: ProductParams,
        body: ProductRequest,
        response: { 200: ONE, ...errorResponses('core', 400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      single(
        'core',
        await updateProduct(database, businessAuthOf(request), request.params.productId, request.body),
      ),
  )

  app.delete(
    '/api/v1/products/:productId',
    {
      config: access('Delete'),
      schema: {
        operationId: 'ArchiveProduct',
        summary: 'Archive a product',
        description:
          'Sets active false and archivedAt; the product, its ledger, BOMs and work orders stay readable. An archived product takes no stock movements and no new BOM lines.',
        tags: TAGS,
        security: CORE_SECURITY,
        params: ProductParams,
        response: {
          200: SingleResult('core', Type.Boolean()),
          ...errorResponses('core', 400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      single('core', await archiveProduct(database, businessAuthOf(request), request.params.productId)),
  )
}
