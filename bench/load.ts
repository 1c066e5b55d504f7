import autocannon from 'autocannon'

export interface Target {
  url: string
  method: string
  headers: Record<string, string>
  body?: string
  /** A sequential scenario's path for each next request (the url's path is then only the first). */
  nextPath?: () => string
}

export interface Sample {
  rps: number
  p50: number
  p99: number
  /** Non-2xx responses, socket errors and timeouts; any of these makes the round suspect. */
  failures: number
  /** Successful responses (summed over rounds in a summary). */
  requests: number
}

/** Nearest-rank percentile of ascending values. */
const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

export async function measure(target: Target, seconds: number, connections: number): Promise<Sample> {
  // autocannon's own percentiles are whole milliseconds; sub-millisecond routes need the raw times.
  const times: number[] = []
  const { nextPath, ...request } = target
  const instance = autocannon({
    ...request,
    duration: seconds,
    connections,
    ...(nextPath
      ? {
          requests: [
            {
              setupRequest: (built: { path: string }) => {
                built.path = nextPath()
                return built
              },
            },
          ],
        }
      : {}),
  })
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) times.push(ms)
  })
  const result = await instance
  const sorted = Float64Array.from(times).sort()
  return {
    // Successful responses only: a fast stream of 429s must not look like throughput.
    rps: times.length / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    failures: result.non2xx + result.errors + result.timeouts,
    requests: times.length,
  }
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Per-field medians across rounds; failures and requests are summed. */
export function summarise(samples: Sample[]): Sample {
  return {
    rps: median(samples.map((s) => s.rps)),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    failures: samples.reduce((sum, s) => sum + s.failures, 0),
    requests: samples.reduce((sum, s) => sum + s.requests, 0),
  }
}
