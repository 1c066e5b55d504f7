import { invalidField } from '../../errors.js'
import { checkKey, type FieldMap, fieldNames, isSortable, lookupField } from './fields.js'
import { at, describe, TokenStream, tokenize } from './lexer.js'
import { parseFieldRef } from './parser.js'

export const MAX_ORDER_TERMS = 5

export interface OrderTerm {
  column: string
  direction: 'asc' | 'desc'
}

/** Parses `field [asc|desc], ...` into trusted column names; an empty or blank value means no ordering. */
export function buildOrderBy(text: string, fields: FieldMap): OrderTerm[] {
  if (text.trim() === '') return []
  const tokens = new TokenStream(tokenize(text, '$orderby'), '$orderby')
  const terms: OrderTerm[] = []
  const seen = new Set<string>()

  for (;;) {
    const ref = parseFieldRef(tokens)
    const found = lookupField(fields, ref, '$orderby')
    // Sortability is checked before the key, so `metadata` gets "cannot be sorted", not "needs a key".
    if (!isSortable(found.spec)) {
      throw invalidField(
        '$orderby',
        `field '${found.name}' ${at(ref.pos)} cannot be sorted; sortable: ${fieldNames(fields, isSortable)}`,
      )
    }
    checkKey(found, ref, '$orderby')
    if (seen.has(found.name))
      throw invalidField('$orderby', `field '${found.name}' ${at(ref.pos)} is repeated`)
    seen.add(found.name)
    if (terms.length === MAX_ORDER_TERMS) {
      throw invalidField('$orderby', `at most ${MAX_ORDER_TERMS} sort fields are allowed`)
    }

    let direction: OrderTerm['direction'] = 'asc'
    if (tokens.isKeyword('asc') || tokens.isKeyword('desc')) {
      direction = tokens.next().value.toLowerCase() === 'desc' ? 'desc' : 'asc'
    }
    terms.push({ column: found.spec.column, direction })

    const next = tokens.next()
    if (next.kind === 'eof') return terms
    if (next.kind !== ',') {
      throw invalidField(
        '$orderby',
        `expected 'asc', 'desc', ',' or end of input ${at(next.pos)}, got ${describe(next)}`,
      )
    }
  }
}
