import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { AS_OF_MEANING } from '../as-of.js'
import { getBomCost } from './bom-cost.service.js'
import { activateBom, deleteBom, reviseBom } from './bom-status.service.js'
import {
  BomCostBreakdownResponse,
  BomCostQuery,
  BomParams,
  BomResponse,
  CreateBomRequest,
  UpdateBomRequest,
} from './boms.schemas.js'
import { createBom, getBom, listBoms, updateBom } from './boms.service.js'

export const BOM_TAGS = ['Boms']
export const BOM_ONE = SingleResult('core', BomResponse)
/** BOMs come under the Products permission. */
const VIEW = ['Products', 'View'] as const
export const BOM_MODIFY = ['Products', 'Modify'] as const

/** Bills of materials (M4): revisions, activation history, multi-level cost as of any date. */
export function registerBomRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/bom',
    operation(VIEW, {
      operationId: 'GetBoms',
      summary: "The business's BOMs with their lines",
      description:
        '$filter and $orderby over code, name, status, productId, revision, dateCreated, dateModified; $search matches code, name and the product sku and name.',
      tags: BOM_TAGS,
      querystring: ListQuery,
      response: PagedResult('core', BomResponse),
      errors: [400],
    }),
    async (request) => listBoms(database, businessAuthOf(request), request.query),
  )

  app.post(
    '/api/v1/bom',
    operation(BOM_MODIFY, {
      operationId: 'CreateBom',
      summary: 'Create a Draft BOM (revision 1), line items inline',
      description:
        'Code BOM-000001 is assigned by the server. A line whose product would make a cycle through the active BOMs of sub-assemblies is a 400 bom_cycle naming the path of SKUs.',
      tags: BOM_TAGS,
      body: CreateBomRequest,
      response: BOM_ONE,
      errors: [400],
    }),
    async (request) => single('core', await createBom(database, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/v1/bom/:bomId',
    operation(VIEW, {
      operationId: 'GetBom',
      summary: 'One BOM with its lines',
      tags: BOM_TAGS,
      params: BomParams,
      response: BOM_ONE,
      errors: [400, 404],
    }),
    async (request) => single('core', await getBom(database, businessAuthOf(request), request.params.bomId)),
  )

  app.put(
    '/api/v1/bom/:bomId',
    operation(BOM_MODIFY, {
      operationId: 'UpdateBom',
      summary: 'Change a Draft BOM (name, output quantity, notes, and the lines when sent)',
      description: 'An Active or Archived BOM is a 409 bom_not_editable: revise it instead.',
      tags: BOM_TAGS,
      params: BomParams,
      body: UpdateBomRequest,
      response: BOM_ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await updateBom(database, businessAuthOf(request), request.params.bomId, request.body)),
  )

  app.delete(
    '/api/v1/bom/:bomId',
    operation(['Products', 'Delete'], {
      operationId: 'DeleteBom',
      summary: 'Delete a Draft or Archived BOM',
      description: '409 bom_active for the active BOM; 409 bom_in_use when a work order used it.',
      tags: BOM_TAGS,
      params: BomParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await deleteBom(database, businessAuthOf(request), request.params.bomId)),
  )

  app.post(
    '/api/v1/bom/:bomId/activate',
    operation(BOM_MODIFY, {
      operationId: 'ActivateBom',
      summary: "Make a Draft BOM the product's active one",
      description:
        "Draft -> Active; the product's previously active BOM becomes Archived and the activation history records when. Another state is a 409 invalid_status_transition; a cycle is a 400 bom_cycle.",
      tags: BOM_TAGS,
      params: BomParams,
      response: BOM_ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await activateBom(database, businessAuthOf(request), request.params.bomId)),
  )

  app.post(
    '/api/v1/bom/:bomId/revise',
    operation(BOM_MODIFY, {
      operationId: 'ReviseBom',
      summary: 'Copy a BOM into a new Draft revision',
      description: 'Same code, revision = highest + 1, lines copied, revisedFromId set.',
      tags: BOM_TAGS,
      params: BomParams,
      response: BOM_ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await reviseBom(database, businessAuthOf(request), request.params.bomId)),
  )

  app.get(
    '/api/v1/bom/:bomId/cost',
    operation(VIEW, {
      operationId: 'GetBomCost',
      summary: "This BOM's cost as of a date, with the tree of sub-assemblies",
      description:
        "Each line at its product's moving-average cost at asOfDate (else its standard unitCost); a sub-assembly at the rolled-up cost of its BOM active at that date (else its current active one). Quantities include scrap. One recursive SQL query. " +
        `asOfDate: ${AS_OF_MEANING} ` +
        'A component with no cost at all (no ledger entry by then, no standard cost) is costed at 0: its line says costSource None and costMissing true (as does every sub-assembly line above it and the answer), and messages carries one Warning entry (code cost_missing) per such product.',
      tags: BOM_TAGS,
      params: BomParams,
      querystring: BomCostQuery,
      response: SingleResult('core', BomCostBreakdownResponse),
      errors: [400, 404],
    }),
    async (request) => {
      const { params, query } = request
      const answer = await getBomCost(database, businessAuthOf(request), params.bomId, query.asOfDate)
      return single('core', answer.cost, answer.messages)
    },
  )
}
