import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openCartage } from '../src/apps/cartage.js'
import { loadConfig } from '../src/config.js'
import { MemoryMailer } from '../src/mail/mailer.js'

/**
 * Cartage opened in the bench's own process for one scenario: on PostgreSQL (DATABASE_URL) or on an
 * embedded database in a temporary directory, with the per-IP and per-account limits lifted so the
 * load is not refused, and mail kept in memory. `close` also removes the directory.
 */
export async function benchCartage(database: 'postgres' | 'embedded', name: string) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `cartage-bench-${name}-`))
  const databaseUrl = database === 'postgres' ? process.env.DATABASE_URL : undefined
  const config = {
    ...loadConfig({ RATE_LIMIT_PER_IP: '1000000', RATE_LIMIT_PER_ACCOUNT: '1000000' }),
    databaseUrl,
    dataDir: tmp,
  }
  const cartage = await openCartage(config, {
    applicationName: `cartage-bench-${name}`,
    mailer: new MemoryMailer(),
  })
  return {
    ...cartage,
    close: async () => {
      await cartage.close()
      rmSync(tmp, { recursive: true, force: true })
    },
  }
}
