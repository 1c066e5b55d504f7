import { setTimeout as sleep } from 'node:timers/promises'
import { tooManyRequests } from '../errors.js'
import type { RateLimiter } from './rate-limiter.js'

const WINDOW_SECONDS = 15 * 60
/** Past the per-pair limit in failures, each further account-wide failure doubles the wait... */
const FIRST_DELAY_MS = 250
/** ...up to this, so a stranger can slow an owner's sign-in down but never keep them out. */
export const MAX_DELAY_MS = 4_000

/**
 * Wrong passwords are counted twice, per (account, client address) pair and per account:
 * - a pair past `perPairLimit` failures in 15 minutes gets 429 for the rest of the window, so an
 *   attacker blocks only their own address for that account;
 * - the account as a whole is never blocked: past the same number of failures from anywhere,
 *   every attempt on it waits a progressive, capped delay before the password is checked.
 * The per-address limit across accounts (all attempts) is the caller's separate `hit`.
 */
export class LoginThrottle {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly perPairLimit: number,
  ) {}

  private keys(email: string, ip: string) {
    const account = email.trim().toLowerCase()
    return { pair: `login:fail:${account}|${ip}`, account: `login:fail:${account}` }
  }

  /** Before checking a password: 429 for a blocked pair, otherwise the account's delay (slept). */
  async admit(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip)
    const windows = await this.limiter.peek([keys.pair, keys.account], WINDOW_SECONDS)
    const pair = windows.get(keys.pair)
    if (pair && pair.hits >= this.perPairLimit) throw tooManyRequests(pair.retryAfterSeconds)
    const delay = accountDelayMs(windows.get(keys.account)?.hits ?? 0, this.perPairLimit)
    if (delay > 0) await sleep(delay)
  }

  async failed(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip)
    await Promise.all([
      this.limiter.count(keys.pair, WINDOW_SECONDS),
      this.limiter.count(keys.account, WINDOW_SECONDS),
    ])
  }

  /** A right password clears the pair's failures (the account's count lapses with its window). */
  async succeeded(email: string, ip: string): Promise<void> {
    await this.limiter.reset(this.keys(email, ip).pair)
  }
}

/** 0 below `threshold` failures, then 250 ms doubling per failure, capped at MAX_DELAY_MS. */
export function accountDelayMs(failures: number, threshold: number): number {
  if (failures < threshold) return 0
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(failures - threshold, 10))
}
