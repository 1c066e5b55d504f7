import { integer } from '../lib/format'

export interface Point {
  label: string
  value: number
}

/** Round numbers for an axis from 0 to at least `max`: 1, 2 or 5 times a power of ten per step. */
export function niceTicks(max: number, count = 4, wholeNumbers = true): number[] {
  if (!(max > 0)) return [0, 1]
  const rough = max / count
  const power = 10 ** Math.floor(Math.log10(rough))
  const nice = ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power
  // Counts have no halves: never a step below 1.
  const step = wholeNumbers ? Math.max(1, nice) : nice
  const ticks: number[] = []
  for (let v = 0; v <= max + step * 0.999; v += step) ticks.push(Math.round(v * 1e6) / 1e6)
  return ticks
}

/**
 * Columns over time as SVG: one bar per bucket, a value axis, and the same figures as a table for
 * screen readers and anyone who wants the numbers (a chart alone says nothing to them).
 */
export function ColumnChart({
  title,
  points,
  format = integer,
  tone = 'bar',
}: {
  title: string
  points: readonly Point[]
  format?: (value: number) => string
  tone?: 'bar' | 'bar-alt'
}) {
  const width = 400
  const height = 190
  const left = 34
  const bottom = 24
  const top = 8
  const ticks = niceTicks(Math.max(0, ...points.map((p) => p.value)))
  const max = ticks[ticks.length - 1] || 1
  const plotHeight = height - bottom - top
  const slot = (width - left) / Math.max(points.length, 1)
  const barWidth = Math.max(2, Math.min(36, slot * 0.7))
  const labelEvery = Math.ceil(points.length / 6)
  const total = points.reduce((sum, p) => sum + p.value, 0)
  const peak = points.reduce<Point | null>((best, p) => (!best || p.value > best.value ? p : best), null)
  const summary = `${title}: ${format(total)} in all over ${points.length} periods${peak ? `, most on ${peak.label} (${format(peak.value)})` : ''}.`
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
        {ticks.map((tick) => {
          const y = top + plotHeight - (tick / max) * plotHeight
          return (
            <g key={tick}>
              <line
                className="axis"
                x1={left}
                x2={width}
                y1={y}
                y2={y}
                strokeOpacity={tick === 0 ? 1 : 0.25}
              />
              <text x={left - 6} y={y + 4} textAnchor="end">
                {format(tick)}
              </text>
            </g>
          )
        })}
        {points.map((point, index) => {
          const h = (point.value / max) * plotHeight
          const x = left + slot * index + (slot - barWidth) / 2
          return (
            <g key={point.label}>
              <rect className={tone} x={x} y={top + plotHeight - h} width={barWidth} height={h}>
                <title>{`${point.label}: ${format(point.value)}`}</title>
              </rect>
              {index % labelEvery === 0 && (
                <text x={x + barWidth / 2} y={height - 8} textAnchor="middle">
                  {point.label}
                </text>
              )}
            </g>
          )
        })}
      </svg>
      <figcaption className="visually-hidden">{summary}</figcaption>
      <details className="as-table">
        <summary>{title} as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col" className="number">
                Count
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.label}>
                <td>{point.label}</td>
                <td className="number">{format(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}

/** Horizontal bars for a ranking (longest first), the value written at the end of each bar. */
export function BarList({
  title,
  points,
  format = integer,
}: {
  title: string
  points: readonly Point[]
  format?: (value: number) => string
}) {
  const max = Math.max(0, ...points.map((p) => p.value)) || 1
  const rowHeight = 26
  const width = 400
  const labelWidth = 130
  const valueWidth = 90
  const height = Math.max(rowHeight, points.length * rowHeight)
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${title}: ${points.map((p) => `${p.label} ${format(p.value)}`).join('; ')}`}
      >
        {points.map((point, index) => {
          const w = ((width - labelWidth - valueWidth) * point.value) / max
          const y = index * rowHeight
          return (
            <g key={point.label}>
              <text x={0} y={y + 18}>
                {point.label.length > 18 ? `${point.label.slice(0, 17)}…` : point.label}
              </text>
              <rect className="bar" x={labelWidth} y={y + 5} width={Math.max(w, 1)} height={rowHeight - 10} />
              <text x={labelWidth + Math.max(w, 1) + 6} y={y + 18}>
                {format(point.value)}
              </text>
            </g>
          )
        })}
      </svg>
    </figure>
  )
}
