/** A closed square ring [lng, lat] from (x0, y0) to (x1, y1), counter-clockwise. */
export const square = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
]

/** A 10x10 degree square at (0,0) with a 4x4 hole in the middle. */
export const SQUARE_WITH_HOLE = { type: 'Polygon', coordinates: [square(0, 0, 10, 10), square(3, 3, 7, 7)] }

/** Two separate squares: (20..22, 20..22) and (30..32, 30..32). */
export const TWO_SQUARES = {
  type: 'MultiPolygon',
  coordinates: [[square(20, 20, 22, 22)], [square(30, 30, 32, 32)]],
}

/** A closed ring of n positions on a circle of radius r degrees around (cx, cy). */
export const circle = (n: number, cx: number, cy: number, r: number): [number, number][] => {
  const ring: [number, number][] = []
  for (let i = 0; i < n - 1; i++) {
    const a = (2 * Math.PI * i) / (n - 1)
    ring.push([cx + r * Math.cos(a), cy + r * Math.sin(a)])
  }
  ring.push(ring[0] as [number, number])
  return ring
}

/**
 * A zone at the size limit around (cx, cy): an outer ring of 4,000 positions (radius 1 degree)
 * and four holes of 4,000 (radius 0.2) half a degree west, east, south and north of the centre.
 */
export const largestZone = (cx = 0, cy = 0) => ({
  type: 'Polygon',
  coordinates: [
    circle(4000, cx, cy, 1),
    circle(4000, cx - 0.5, cy, 0.2),
    circle(4000, cx + 0.5, cy, 0.2),
    circle(4000, cx, cy - 0.5, 0.2),
    circle(4000, cx, cy + 0.5, 0.2),
  ],
})

/** A star of n positions whose long thin spikes all start near the centre: every edge's box overlaps the others'. */
export const spikyStar = (n = 4000) => {
  const ring: [number, number][] = []
  for (let i = 0; i < n - 1; i++) {
    const a = (2 * Math.PI * i) / (n - 1)
    const r = i % 2 ? 10 : 0.001
    ring.push([r * Math.cos(a), r * Math.sin(a)])
  }
  ring.push(ring[0] as [number, number])
  return ring
}
