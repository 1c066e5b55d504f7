import { businessAuthOf } from '../../../http/auth-hook.js'
import { single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { BOM_MODIFY, BOM_ONE, BOM_TAGS } from './boms.routes.js'
import { BomLineInput, BomLineParams, BomParams } from './boms.schemas.js'
import { addLine, deleteLine, updateLine } from './boms.service.js'

const NOTE = 'Draft BOMs only (409 bom_not_editable otherwise). Returns the whole BOM.'

export function registerBomLineRoutes(app: HttpApp, { database }: AppDeps) {
  app.post(
    '/api/v1/bom/:bomId/line-items',
    operation(BOM_MODIFY, {
      operationId: 'AddBomLineItem',
      summary: 'Add a line item',
      description: `${NOTE} A line that would make a cycle is a 400 bom_cycle naming the path of SKUs.`,
      tags: BOM_TAGS,
      params: BomParams,
      body: BomLineInput,
      response: BOM_ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await addLine(database, businessAuthOf(request), request.params.bomId, request.body)),
  )

  app.put(
    '/api/v1/bom/:bomId/line-items/:lineItemId',
    operation(BOM_MODIFY, {
      operationId: 'UpdateBomLineItem',
      summary: 'Replace a line item',
      description: NOTE,
      tags: BOM_TAGS,
      params: BomLineParams,
      body: BomLineInput,
      response: BOM_ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updateLine(
          database,
          businessAuthOf(request),
          request.params.bomId,
          request.params.lineItemId,
          request.body,
        ),
      ),
  )

  app.delete(
    '/api/v1/bom/:bomId/line-items/:lineItemId',
    operation(BOM_MODIFY, {
      operationId: 'DeleteBomLineItem',
      summary: 'Remove a line item',
      description: NOTE,
      tags: BOM_TAGS,
      params: BomLineParams,
      response: BOM_ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await deleteLine(database, businessAuthOf(request), request.params.bomId, request.params.lineItemId),
      ),
  )
}
