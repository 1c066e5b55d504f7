/**
 * What other areas may use of the customers area; everything else in its folders is its own. The
 * dependency test (test/architecture) holds other areas to it.
 */
export { addTrace, addTraces } from './activity/traces.js'
export { lockCustomer } from './customers/customers.repository.js'
export { CustomerParams } from './customers/customers.schemas.js'
export { assertCustomerExists } from './customers/customers.service.js'
