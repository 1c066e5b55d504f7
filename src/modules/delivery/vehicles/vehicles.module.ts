import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import * as vehicleShifts from './migrations/20261218090100-vehicle-shifts.js'
import { registerVehicleRoutes } from './vehicles.routes.js'

/** Vehicles (M5): the fleet that delivery plans load. */
export const vehiclesModule = defineModule({
  name: 'delivery/vehicles',
  core: {
    tags: [
      { name: 'Vehicles', description: 'The fleet: vehicles with weight and volume capacity (Vehicles)' },
    ],
    routes: registerVehicleRoutes,
  },
  migrations: { tenant: [{ name: '20261218090100-vehicle-shifts', sql: vehicleShifts.sql }] },
  schemaNames: returning('VehicleResponse', ['GetVehicles', 'CreateVehicle', 'GetVehicle', 'UpdateVehicle']),
})
