/**
 * Whether this process last found its storage full (a write refused with disk_full or ENOSPC),
 * for the readiness probe and `/metrics`. Set by the error handler when a request meets it; the
 * readiness probe clears it once a small durable write succeeds again.
 */
import { statfsSync } from 'node:fs'

let fullSince: number | null = null
/** The embedded database's directory: its free space says when a full disk is over. */
let watchedDirectory: string | undefined
/** Below this much free space the directory still counts as full. */
const FREE_ENOUGH_BYTES = 16 * 1024 * 1024

export const storageState = {
  reportFull() {
    fullSince ??= Date.now()
  },
  reportWritable() {
    fullSince = null
  },
  get full(): boolean {
    return fullSince !== null
  },
  /** The embedded database's data directory (the disk whose space it needs). */
  watchDirectory(dir: string) {
    watchedDirectory = dir
  },
  /**
   * Whether the watched directory has room again; undefined without one (PostgreSQL's disk is
   * not this process's to see: there a write is the probe).
   */
  roomAgain(): boolean | undefined {
    if (!watchedDirectory) return undefined
    try {
      const { bavail, bsize } = statfsSync(watchedDirectory)
      return Number(bavail) * Number(bsize) >= FREE_ENOUGH_BYTES
    } catch {
      return undefined
    }
  },
}
