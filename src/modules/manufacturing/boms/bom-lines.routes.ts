import { businessAuthOf } from '../../../http/auth-hook.js'
import { single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import { BOM_ONE, BOM_TAGS, bomAccess } from './boms.routes.js'
import { BomLineInput, BomLineParams, BomParams } from './boms.schemas.js'
import { addLine, deleteLine, updateLine } from './boms.service.js'

const NOTE = 'Draft BOMs only (409 bom_not_editable otherwise). Returns the whole BOM.'

export function registerBomLineRoutes(app: HttpApp, { database }: AppDeps) {
  app.post(
    '/api/v1/bom/:bomId/line-items',
    {
      config: bomAccess('Modify'),
      schema: {
        operationId: 'AddBomLineItem',
        summary: 'Add a line item',
        description: `${NOTE} A line that would make a cycle is a 400 bom_cycle naming the path of SKUs.`,
        tags: BOM_TAGS,
        security: CORE_SECURITY,
        params: BomParams,
        body: BomLineInput,
        response: { 200: BOM_ONE, ...errorResponses('core', 400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      single('core', await addLine(database, businessAuthOf(request), request.params.bomId, request.body)),
  )

  app.put(
    '/api/v1/bom/:bomId/line-items/:lineItemId',
    {
      config: bomAccess('Modify'),
      schema: {
        operationId: 'UpdateBomLineItem',
        summary: 'Replace a line item',
        description: NOTE,
        tags: BOM_TAGS,
        security: CORE_SECURITY,
        params: BomLineParams,
        body: BomLineInput,
        response: { 200: BOM_ONE, ...errorResponses('core', 400, 401, 403, 404, 409) },
      },
    },
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
    {
      config: bomAccess('Modify'),
      schema: {
        operationId: 'DeleteBomLineItem',
        summary: 'Remove a line item',
        description: NOTE,
        tags: BOM_TAGS,
        security: CORE_SECURITY,
        params: BomLineParams,
        response: { 200: BOM_ONE, ...errorResponses('core', 400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      single(
        'core',
        await deleteLine(database, businessAuthOf(request), request.params.bomId, request.params.lineItemId),
      ),
  )
}
