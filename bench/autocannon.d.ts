// The subset of autocannon's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string
    connections?: number
    duration?: number
    /** Requests to send in all (instead of a duration). */
    amount?: number
    method?: string
    headers?: Record<string, string>
    body?: string
  }
  interface Result {
    /** Completed requests (`total`) over `duration` seconds. */
    requests: { total: number; average: number }
    /** Whole milliseconds only; the bench computes its own percentiles from `response` events. */
    latency: { p50: number; p99: number }
    duration: number
    errors: number
    timeouts: number
    non2xx: number
  }
  interface Instance extends PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): this
  }
  function autocannon(options: Options): Instance
  export default autocannon
}
