import type { Generated } from 'kysely'
import type { Stamp } from './column-types.js'

/** On main: what was decided for each write prepared on another cluster (db/clusters.ts). */
export interface ClusterCommitsTable {
  gid: string
  cluster: string
  committed: Generated<boolean>
  recorded_at: Stamp
}

declare module './tables.js' {
  interface Tables {
    'global.cluster_commits': ClusterCommitsTable
  }
}
