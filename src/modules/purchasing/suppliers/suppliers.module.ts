import { defineModule } from '../../../platform/module.js'
import * as suppliersMigration from './migrations/20261201090000-suppliers.js'

/** Suppliers (module Suppliers): who the business buys from, and at what terms per product. */
export const suppliersModule = defineModule({
  name: 'purchasing/suppliers',
  migrations: {
    tenant: [{ name: '20261201090000-suppliers', sql: suppliersMigration.sql }],
  },
})
