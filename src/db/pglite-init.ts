/**
 * Creates an embedded data directory (initdb) in a process of its own. initdb's WASM heap and
 * compiled code (~400 MB) would otherwise stay with the server for its whole life; a process
 * that exits hands all of it back.
 */
import { PGlite } from '@electric-sql/pglite'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: pglite-init <data dir>')
const db = await PGlite.create(dataDir)
await db.close()
