/**
 * Runs `round` once started and then `intervalMs` after each round ends (never two at once), until
 * stopped; a failed round is reported and the next one still comes. The timer does not keep the
 * process alive. Background work of `cartage serve` (webhook deliveries, the overdue sweep).
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<unknown> | undefined
  private stopped = false

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  get isStopped(): boolean {
    return this.stopped
  }

  /** The first round after `delayMs` (default: at once). */
  start(delayMs = 0) {
    this.schedule(delayMs)
  }

  /**
   * Stops scheduling and waits for the round in progress, unless `waitForRound` is false (a round
   * that may wait on others' locks, told to end by its own means).
   */
  async stop({ waitForRound = true }: { waitForRound?: boolean } = {}) {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    if (waitForRound) await this.running?.catch(() => {})
  }

  private schedule(delay: number) {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      this.running = this.round()
        .catch(this.onError)
        .finally(() => this.schedule(this.intervalMs))
    }, delay)
    this.timer.unref()
  }
}
