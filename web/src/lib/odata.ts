/** A string literal for $filter: single quotes, and a quote inside doubled (OData). */
export function quoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/** `and` of the clauses given, leaving out empty ones; undefined when none is left. */
export function allOf(...clauses: (string | null | undefined | false)[]): string | undefined {
  const kept = clauses.filter((c): c is string => typeof c === 'string' && c.trim() !== '')
  if (kept.length === 0) return undefined
  return kept.length === 1 ? kept[0] : kept.map((c) => `(${c})`).join(' and ')
}
