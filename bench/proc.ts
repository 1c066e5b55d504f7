import { readFileSync } from 'node:fs'

/** A process's user and system CPU time on this machine, in clock ticks (USER_HZ, 100 a second). */
export function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return Number(fields[11]) + Number(fields[12]) // utime + stime
}

/** A process's resident set size on this machine, in MB. */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)
  return Number(line?.[1] ?? 0) / 1024
}
