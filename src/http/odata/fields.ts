import { invalidField } from '../../errors.js'
import { at, type Param } from './lexer.js'
import type { FieldRef } from './parser.js'

export type FieldType = 'string' | 'number' | 'boolean' | 'datetime' | 'date' | 'uuid' | 'enum' | 'map'

export interface FieldSpec {
  /** trusted SQL column reference written by our code, e.g. 'name' or 'c.date_created'; used with sql.ref() */
  column: string
  type: FieldType
  /** for type 'enum': the PascalCase names; the column stores the NAME as text. Literals match case-insensitively by name, or by numeric index into this array (0-based) */
  enumValues?: readonly string[]
  /** for type 'map': a jsonb column of string->string; the client writes `metadata/someKey` and we compare (column ->> 'someKey') as string */
  sortable?: boolean // default true (map fields are never sortable)
}

/** keys are API field names (camelCase); clients may write them in any letter case */
export type FieldMap = Readonly<Record<string, FieldSpec>>

/** A field after lookup: `name` is the API name as declared, used in every message instead of the column. */
export interface ResolvedField {
  name: string
  spec: FieldSpec
  key?: string
}

// FieldMaps are module-level constants, so the lower-cased index is built once per map.
const indexes = new WeakMap<FieldMap, ReadonlyMap<string, ResolvedField>>()

function indexOf(fields: FieldMap): ReadonlyMap<string, ResolvedField> {
  let index = indexes.get(fields)
  if (!index) {
    const built = new Map<string, ResolvedField>()
    for (const [name, spec] of Object.entries(fields)) {
      const lower = name.toLowerCase()
      // Two names differing only in case could never both be reached: a bug in our own FieldMap.
      if (built.has(lower)) throw new Error(`FieldMap has '${name}' twice, ignoring case`)
      built.set(lower, { name, spec })
    }
    index = built
    indexes.set(fields, index)
  }
  return index
}

export const isSortable = (spec: FieldSpec) => spec.type !== 'map' && spec.sortable !== false

/** Lists API names only: column names are internal and never reach a client. */
export function fieldNames(fields: FieldMap, filter: (spec: FieldSpec) => boolean = () => true): string {
  const names = Object.entries(fields)
    .filter(([, spec]) => filter(spec))
    .map(([name]) => name)
  return names.length > 0 ? names.join(', ') : '(none)'
}

/** Looks a field up ignoring case; the `/key` is checked separately by checkKey. */
export function lookupField(fields: FieldMap, ref: FieldRef, param: Param): ResolvedField {
  const found = indexOf(fields).get(ref.name.toLowerCase())
  if (found) return found
  const allowed = param === '$orderby' ? fieldNames(fields, isSortable) : fieldNames(fields)
  throw invalidField(param, `unknown field '${ref.name}' ${at(ref.pos)}; allowed: ${allowed}`)
}

/** Only map fields take a `/key`, and they always need one. */
export function checkKey(found: ResolvedField, ref: FieldRef, param: Param): ResolvedField {
  if (found.spec.type === 'map') {
    if (ref.key === undefined) {
      throw invalidField(
        param,
        `field '${found.name}' ${at(ref.pos)} needs a key, e.g. '${found.name}/someKey'`,
      )
    }
    return { ...found, key: ref.key }
  }
  if (ref.key !== undefined) {
    throw invalidField(param, `field '${found.name}' ${at(ref.pos)} cannot be followed by '/'`)
  }
  return found
}

export const resolveField = (fields: FieldMap, ref: FieldRef, param: Param): ResolvedField =>
  checkKey(lookupField(fields, ref, param), ref, param)
