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
