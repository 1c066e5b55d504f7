/**
 * What the other modules of the customers area may use of customers/customers; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { ATTACHMENT_TYPES, CustomerParams, CustomerResponse } from './customers.schemas.js'
export {
  assertCustomerExists,
  type CustomerAuth,
  loadCustomerResponse,
  lockLiveCustomer,
} from './customers.service.js'
