import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * One demo organisation per run of the console's tests: the first end-to-end file seeds it into
 * this directory and each later file starts its server on a copy (web/e2e/server.ts). Removed at the end.
 */
export default function setup() {
  const template = mkdtempSync(path.join(os.tmpdir(), 'cartage-demo-template-'))
  process.env.CARTAGE_E2E_DEMO_TEMPLATE = template
  return () => rmSync(template, { recursive: true, force: true })
}
