import { ENUM_KEYWORD, type EnumSpec } from './enums.js'

/**
 * Our enum schemas validate through a custom keyword (so input may be any case or a number);
 * in the published document they appear as ordinary `enum` lists of the canonical names.
 */
export function enumsForOpenApi<T>(document: T): T {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    if (node === null || typeof node !== 'object') return
    const record = node as Record<string, unknown>
    const spec = record[ENUM_KEYWORD] as EnumSpec | undefined
    if (spec && Array.isArray(spec.names)) {
      record.enum = [...spec.names]
      delete record[ENUM_KEYWORD]
    }
    for (const value of Object.values(record)) visit(value)
  }
  const copy = structuredClone(document)
  visit(copy)
  return copy
}
