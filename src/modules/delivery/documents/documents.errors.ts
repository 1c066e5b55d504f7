import { notFound } from '../../../errors.js'

/** The plans module's own code for an unknown plan, answered by the plan's documents too. */
export const planNotFoundForDocument = () =>
  notFound('delivery_plan_not_found', 'No delivery plan of this business has this id.')
