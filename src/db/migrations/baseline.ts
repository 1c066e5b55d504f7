/**
 * The baseline: migrations that landed before modules declared their own. Several of them create
 * the tables of more than one module at once, so they stay here, together and unedited; every
 * later migration lives in the folder of the module it belongs to (`CartageModule.migrations`).
 * Names are `<timestamp>-<what it does>`; a landed migration is never edited, only followed by a
 * new one. Listed explicitly (not read from disk) so the build and the tests see the same set.
 */

import type { MigrationSet } from '../migrator.js'
import * as createIdentityTables from './global/20261122080000-create-identity-tables.js'
import * as createCredentialTables from './global/20261122090000-create-credential-tables.js'
import * as makeRateLimitsUnlogged from './global/20261122150000-make-rate-limits-unlogged.js'
import * as notifyCredentialChanges from './global/20261122220000-notify-credential-changes.js'
import * as createUsedSelectionTokens from './global/20261123110000-create-used-selection-tokens.js'
import * as notifySessionChanges from './global/20261124105000-notify-session-changes.js'
import * as enablePgTrgm from './global/20261124106000-enable-pg-trgm.js'
import * as addInvitedNames from './global/20261124107000-add-invited-names.js'
import * as retireStoredSigningKeys from './global/20261124150000-retire-stored-signing-keys.js'
import * as addInvitedEmail from './global/20261124150100-add-invited-email.js'
import * as hideCatalogueFromPublic from './global/20261125090000-hide-catalogue-from-public.js'
import * as createIdempotencyKeys from './global/20261125120000-create-idempotency-keys.js'
import * as createClusterCommits from './global/20261231100000-create-cluster-commits.js'
import * as createBusinesses from './tenant/20261122080000-create-businesses.js'
import * as createCustomerAndOrderTables from './tenant/20261122100000-create-customer-and-order-tables.js'
import * as addCustomerPrimaryContactIndex from './tenant/20261122120000-add-customer-primary-contact-index.js'
import * as addOrderStatusAndCreatedIndexes from './tenant/20261122130000-add-order-status-and-created-indexes.js'
import * as addCustomerListOrderIndexes from './tenant/20261122220000-add-customer-list-order-indexes.js'
import * as createManufacturingTables from './tenant/20261123090000-create-manufacturing-tables.js'
import * as createDeliveryTables from './tenant/20261123100000-create-delivery-tables.js'
import * as unitSettingsUseEnumNames from './tenant/20261124100000-unit-settings-use-enum-names.js'
import * as addCustomerSearchIndexes from './tenant/20261124107000-add-customer-search-indexes.js'
import * as countLiveCustomers from './tenant/20261124110000-count-live-customers.js'
import * as addInsightsIndexes from './tenant/20261124140000-add-insights-indexes.js'
import * as searchIndexesWithoutPendingList from './tenant/20261126090000-search-indexes-without-pending-list.js'

export const BASELINE_MIGRATIONS: MigrationSet = {
  global: [
    { name: '20261122080000-create-identity-tables', sql: createIdentityTables.sql },
    { name: '20261122090000-create-credential-tables', sql: createCredentialTables.sql },
    { name: '20261122150000-make-rate-limits-unlogged', sql: makeRateLimitsUnlogged.sql },
    { name: '20261122220000-notify-credential-changes', sql: notifyCredentialChanges.sql },
    { name: '20261123110000-create-used-selection-tokens', sql: createUsedSelectionTokens.sql },
    { name: '20261124105000-notify-session-changes', sql: notifySessionChanges.sql },
    { name: '20261124106000-enable-pg-trgm', sql: enablePgTrgm.sql },
    { name: '20261124107000-add-invited-names', sql: addInvitedNames.sql },
    { name: '20261124150000-retire-stored-signing-keys', sql: retireStoredSigningKeys.sql },
    { name: '20261124150100-add-invited-email', sql: addInvitedEmail.sql },
    { name: '20261125090000-hide-catalogue-from-public', sql: hideCatalogueFromPublic.sql },
    // The HTTP kernel's table (src/http/idempotency/): the kernel is no module, so it is listed here.
    { name: '20261125120000-create-idempotency-keys', sql: createIdempotencyKeys.sql },
    // The decision records of writes prepared on another cluster (db/clusters.ts).
    { name: '20261231100000-create-cluster-commits', sql: createClusterCommits.sql },
  ],
  /** Run inside each organisation schema (search_path set to it), on creation and at start-up. */
  tenant: [
    { name: '20261122080000-create-businesses', sql: createBusinesses.sql },
    { name: '20261122100000-create-customer-and-order-tables', sql: createCustomerAndOrderTables.sql },
    { name: '20261122120000-add-customer-primary-contact-index', sql: addCustomerPrimaryContactIndex.sql },
    { name: '20261122130000-add-order-status-and-created-indexes', sql: addOrderStatusAndCreatedIndexes.sql },
    { name: '20261122220000-add-customer-list-order-indexes', sql: addCustomerListOrderIndexes.sql },
    { name: '20261123090000-create-manufacturing-tables', sql: createManufacturingTables.sql },
    { name: '20261123100000-create-delivery-tables', sql: createDeliveryTables.sql },
    { name: '20261124100000-unit-settings-use-enum-names', sql: unitSettingsUseEnumNames.sql },
    { name: '20261124107000-add-customer-search-indexes', sql: addCustomerSearchIndexes.sql },
    { name: '20261124110000-count-live-customers', sql: countLiveCustomers.sql },
    { name: '20261124140000-add-insights-indexes', sql: addInsightsIndexes.sql },
    { name: '20261126090000-search-indexes-without-pending-list', sql: searchIndexesWithoutPendingList.sql },
  ],
}
