import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { VehicleParams, VehicleRequest, VehicleResponse } from './vehicles.schemas.js'
import { createVehicle, deleteVehicle, getVehicle, listVehicles, updateVehicle } from './vehicles.service.js'

const TAGS = ['Vehicles']
const ONE = SingleResult('core', VehicleResponse)

/** Vehicles (M5): the fleet that delivery plans load, with weight and volume capacity. */
export function registerVehicleRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/vehicles',
    operation(['Vehicles', 'View'], {
      operationId: 'GetVehicles',
      summary: "The business's vehicles",
      description:
        '$filter/$orderby over registration, name, active, maxWeight, maxVolume, dateCreated, dateModified; $search matches registration and name.',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', VehicleResponse),
      errors: [400],
    }),
    async (request) => listVehicles(database, businessAuthOf(request), request.query),
  )
  app.post(
    '/api/v1/vehicles',
    operation(['Vehicles', 'Modify'], {
      operationId: 'CreateVehicle',
      summary: 'Add a vehicle',
      description:
        'The registration is stored upper case; a registration already used in the business is a 409.',
      tags: TAGS,
      body: VehicleRequest,
      response: ONE,
      errors: [400, 409],
    }),
    async (request) => single('core', await createVehicle(database, businessAuthOf(request), request.body)),
  )
  app.get(
    '/api/v1/vehicles/:vehicleId',
    operation(['Vehicles', 'View'], {
      operationId: 'GetVehicle',
      summary: 'One vehicle',
      tags: TAGS,
      params: VehicleParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getVehicle(database, businessAuthOf(request), request.params.vehicleId)),
  )
  app.put(
    '/api/v1/vehicles/:vehicleId',
    operation(['Vehicles', 'Modify'], {
      operationId: 'UpdateVehicle',
      summary: 'Replace a vehicle',
      tags: TAGS,
      params: VehicleParams,
      body: VehicleRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updateVehicle(database, businessAuthOf(request), request.params.vehicleId, request.body),
      ),
  )
  app.delete(
    '/api/v1/vehicles/:vehicleId',
    operation(['Vehicles', 'Delete'], {
      operationId: 'DeleteVehicle',
      summary: 'Delete a vehicle',
      description:
        'A vehicle on a plan that is not Completed or Cancelled is a 409 vehicle_in_use; finished plans keep their history without it.',
      tags: TAGS,
      params: VehicleParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await deleteVehicle(database, businessAuthOf(request), request.params.vehicleId)),
  )
}
