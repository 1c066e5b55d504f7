/**
 * Cartage as deployed, minus logging: both apps over one database from the environment
 * (DATABASE_URL or CARTAGE_DATA_DIR, DB_POOL_SIZE). Prints `{"core":port,"global":port}`.
 * BENCH_EXTRA_CPU_US=<µs> adds busy work to every Core API request (an experiment knob).
 */

import { openCartage } from '../src/apps/cartage.js'
import { loadConfig } from '../src/config.js'
import { setHomeLanes } from '../src/db/lane-pool.js'
import { setPreparedPerConnection } from '../src/db/prepared.js'
import { listenAndAnnounce } from './server-process.js'

const config = loadConfig()
// Experiment knob: BENCH_PREPARED_PER_CONNECTION=<n> prepared statements kept per connection (0: none).
if (process.env.BENCH_PREPARED_PER_CONNECTION)
  setPreparedPerConnection(Number(process.env.BENCH_PREPARED_PER_CONNECTION))
// Experiment knob: BENCH_HOME_LANES=<n> connections serving each organisation (1: one; DB_POOL_SIZE: any).
if (process.env.BENCH_HOME_LANES) setHomeLanes(Number(process.env.BENCH_HOME_LANES))
// As `cartage serve` opens it, without a logger or the background workers.
const { core, global, close } = await openCartage(config, {
  applicationName: process.env.BENCH_APPLICATION_NAME ?? 'cartage-bench',
})
// Sensitivity experiment: BENCH_EXTRA_CPU_US=<µs> burns that much CPU per Core API request, to
// measure what a microsecond of per-request work costs in throughput.
const extraCpuUs = Number(process.env.BENCH_EXTRA_CPU_US ?? 0)
if (extraCpuUs > 0) {
  core.addHook('onRequest', async () => {
    const until = process.hrtime.bigint() + BigInt(Math.round(extraCpuUs * 1000))
    while (process.hrtime.bigint() < until) {}
  })
}
await listenAndAnnounce({ core, global }, close)
