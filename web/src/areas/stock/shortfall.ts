import { ApiError } from '../../api/errors'

/** The 409 stock_shortfall of a movement, read from its message: when the stock would go negative, and by how much. */
export function shortfallOf(error: unknown): { date: Date; shortfall: number } | null {
  if (!(error instanceof ApiError) || error.status !== 409 || error.code !== 'stock_shortfall') return null
  const match = /on (\d{4}-\d{2}-\d{2}T[\d:.]+Z), short by (-?\d+(?:\.\d+)?)/.exec(error.message)
  if (!match) return null
  const date = new Date(match[1] as string)
  const shortfall = Number(match[2])
  return Number.isNaN(date.getTime()) || !Number.isFinite(shortfall) ? null : { date, shortfall }
}
