import { conflict, notFound } from '../../../errors.js'

/** The vehicles module's error codes (tests assert these, never the message). */
export const vehicleNotFound = () => notFound('vehicle_not_found', 'No vehicle of this business has this id.')

export const registrationTaken = () =>
  conflict('vehicle_registration_taken', 'Another vehicle of this business has this registration.')

export const vehicleInUse = (planCode: string) =>
  conflict('vehicle_in_use', `The vehicle is on delivery plan ${planCode}, which is not finished.`)
