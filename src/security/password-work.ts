import os from 'node:os'
import { tooManyRequests } from '../errors.js'

/** How many sign-ins of one account may wait for a password check; more are refused at once. */
const WAITING_PER_ACCOUNT = 8

/**
 * Password checks (argon2: ~20 MB and tens of milliseconds of a core each) share the machine
 * fairly between accounts: at most `slots` run at once, at most one per account, and a freed slot
 * goes to the next account in turn. A flood of sign-ins for one account (or a few) therefore holds
 * at most one slot each and waits behind itself, while everyone else's sign-in finds a free slot
 * or is next in line; past WAITING_PER_ACCOUNT waiting, the account's further attempts get 429.
 */
export class PasswordWork {
  private running = 0
  private readonly busy = new Set<string>()
  /** Accounts with work waiting, each with its queue. */
  private readonly waiting = new Map<string, (() => void)[]>()
  /** When each account with work waiting or running last started a check (a running count). */
  private readonly lastStarted = new Map<string, number>()
  private starts = 0

  constructor(private readonly slots = Math.max(1, os.availableParallelism())) {}

  async run<T>(account: string, task: () => Promise<T>): Promise<T> {
    const key = account.trim().toLowerCase()
    if (this.running >= this.slots || this.busy.has(key)) {
      const queue = this.waiting.get(key) ?? []
      if (queue.length >= WAITING_PER_ACCOUNT) throw tooManyRequests(1)
      await new Promise<void>((resolve) => {
        queue.push(resolve)
        this.waiting.set(key, queue)
      })
    } else {
      this.start(key)
    }
    try {
      return await task()
    } finally {
      this.busy.delete(key)
      this.running--
      if (!this.waiting.has(key)) this.lastStarted.delete(key)
      this.next()
    }
  }

  private start(key: string) {
    this.running++
    this.busy.add(key)
    this.lastStarted.set(key, ++this.starts)
  }

  /**
   * Fills free slots, each with the waiting account (not already running one) whose last check
   * started longest ago; one that never ran goes first, in arrival order.
   */
  private next() {
    while (this.running < this.slots) {
      let chosen: string | undefined
      let chosenAt = Number.POSITIVE_INFINITY
      for (const key of this.waiting.keys()) {
        if (this.busy.has(key)) continue
        const at = this.lastStarted.get(key) ?? -1
        if (at < chosenAt) {
          chosen = key
          chosenAt = at
        }
      }
      if (chosen === undefined) return
      const queue = this.waiting.get(chosen) ?? []
      const resume = queue.shift()
      if (queue.length === 0) this.waiting.delete(chosen)
      if (!resume) continue
      this.start(chosen)
      resume()
    }
  }
}
