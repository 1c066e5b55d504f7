import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { AS_OF_MEANING } from '../as-of.js'
import { ProductParams } from '../products/index.js'
import {
  BulkStockMovementsRequest,
  BulkStockMovementsResponse,
  LedgerEntryResponse,
  MAX_BULK_MOVEMENTS,
  StockMovementRequest,
  StockQuery,
  StockResponse,
} from './stock.schemas.js'
import { getStock, listLedger, postStockMovement } from './stock.service.js'
import { postStockMovementsBulk } from './stock-bulk.service.js'

const TAGS = ['Products']
const VIEW = ['Products', 'View'] as const
const MODIFY = ['Products', 'Modify'] as const

/** The stock ledger (M4): effective-dated movements with running balance and moving-average cost. */
export function registerStockRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  app.post(
    '/api/v1/products/:productId/stock-movements',
    operation(MODIFY, {
      operationId: 'PostStockMovement',
      summary: 'Receive, issue or adjust stock, at an effective date',
      description:
        'Returns the new ledger entry with its running balance. 409 stock_shortfall (date and shortfall in the message and reasons) when any point in time would go below zero; ' +
        '409 service_holds_no_stock for a Service, 409 product_archived for an archived product. An issue that takes the stock to or below reorderLevel publishes StockAtReorderLevel.',
      tags: TAGS,
      params: ProductParams,
      body: StockMovementRequest,
      response: SingleResult('core', LedgerEntryResponse),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await postStockMovement(deps, businessAuthOf(request), request.params.productId, request.body),
      ),
  )

  app.post(
    '/api/v1/products/stock-movements/bulk',
    operation(MODIFY, {
      operationId: 'PostStockMovementsBulk',
      summary: 'Post many stock movements (opening balances, history) in one transaction',
      description:
        `Needs Products Modify. 1 to ${MAX_BULK_MOVEMENTS} rows, each a movement as in PostStockMovement plus its productId; ` +
        'the body must stay within the server body limit (BODY_LIMIT_BYTES, default 1 MiB, which holds the most rows with every reason and reference at full length). ' +
        'All or nothing: every row is checked first and any bad row refuses the whole request, nothing posted; ' +
        'each error names the rows as movements.<index>.<field> (up to 100 reasons; the message counts the rows). ' +
        "400 validation_failed for rows that are not valid; 404 product_not_found for rows naming a product that is not this business's; " +
        '409 service_holds_no_stock or product_archived naming the rows of such products; ' +
        '409 stock_shortfall (date and shortfall in the message) naming the row whose entry would be the first below zero, or the last outgoing row before an older entry that would. ' +
        "Otherwise all rows are posted in one transaction and each product's ledger is re-valued once, from its earliest new entry: " +
        'send history oldest first, and each request re-values only itself and what follows it. ' +
        "Entries of one product at the same instant keep the order of the rows. Returns each product's stock after the posting.",
      tags: TAGS,
      body: BulkStockMovementsRequest,
      response: SingleResult('core', BulkStockMovementsResponse),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await postStockMovementsBulk(deps, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/v1/products/:productId/stock',
    operation(VIEW, {
      operationId: 'GetProductStock',
      summary: 'Stock on hand, moving-average cost and value as of an instant',
      description: `asOfDate: ${AS_OF_MEANING} One indexed lookup of the last ledger entry at or before that instant.`,
      tags: TAGS,
      params: ProductParams,
      querystring: StockQuery,
      response: SingleResult('core', StockResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await getStock(database, businessAuthOf(request), request.params.productId, request.query.asOfDate),
      ),
  )

  app.get(
    '/api/v1/products/:productId/ledger',
    operation(VIEW, {
      operationId: 'GetProductLedger',
      summary: "The product's ledger entries in effective-date order",
      description:
        'Each entry carries its running balance and the moving-average cost after it. $filter/$orderby over type, effectiveDate, quantity, reference, workOrderId, dateCreated; $search over reason and reference.',
      tags: TAGS,
      params: ProductParams,
      querystring: ListQuery,
      response: PagedResult('core', LedgerEntryResponse),
      errors: [400, 404],
    }),
    async (request) => listLedger(database, businessAuthOf(request), request.params.productId, request.query),
  )
}
