import { type RawBuilder, sql } from 'kysely'

/**
 * A product's weight and dimensions are kept in its own units; a shipment's weight is in kg and its
 * volume in m³. A product without a weight unit is taken as kg; dimensions always carry theirs.
 */
export const KG_PER_UNIT: Readonly<Record<string, number>> = {
  G: 0.001,
  Kg: 1,
  Lb: 0.45359237,
  Oz: 0.028349523125,
}
export const METRES_PER_UNIT: Readonly<Record<string, number>> = {
  Mm: 0.001,
  Cm: 0.01,
  M: 1,
  In: 0.0254,
  Ft: 0.3048,
}

export const kgOf = (weight: number, unit: string | null) => weight * (KG_PER_UNIT[unit ?? 'Kg'] ?? 1)

export const cubicMetresOf = (length: number, width: number, height: number, unit: string | null) => {
  const metres = METRES_PER_UNIT[unit ?? 'M'] ?? 1
  return length * width * height * metres ** 3
}

/** The same factors in SQL: `CASE <column> WHEN 'G' THEN 0.001 ... ELSE 1 END`. */
export function factorSql(column: string, factors: Readonly<Record<string, number>>): RawBuilder<number> {
  const cases = Object.entries(factors).map(
    ([unit, factor]) => sql`WHEN ${sql.lit(unit)} THEN ${sql.lit(factor)}::numeric`,
  )
  return sql<number>`(CASE ${sql.ref(column)} ${sql.join(cases, sql` `)} ELSE 1 END)`
}
