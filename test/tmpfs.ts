import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** Mounts a tmpfs of `sizeMb` at `dir` (root only): a disk a test may fill. */
export async function mountTmpfs(dir: string, sizeMb: number): Promise<void> {
  await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir])
}

export async function unmount(dir: string): Promise<void> {
  await run('umount', ['-l', dir]).catch(() => {})
}
