import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { invalidField } from '../../errors.js'
import { type FieldMap, type FieldType, type ResolvedField, resolveField } from './fields.js'
import { at, describe, type Token } from './lexer.js'
import { type Bound, bindValue, type ValueLiteral } from './literals.js'
import { type CompareOp, type Expr, type FunctionName, type Literal, parseFilter } from './parser.js'

// `ne` uses IS DISTINCT FROM so rows whose column is NULL count as "not equal", as OData defines it;
// plain <> would silently drop them.
const OPERATORS: Record<CompareOp, string> = {
  eq: '=',
  ne: 'is distinct from',
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
}

const ORDERED_TYPES: readonly FieldType[] = ['string', 'number', 'datetime', 'date', 'uuid', 'map']
const TEXT_TYPES: readonly FieldType[] = ['string', 'map']

/** LIKE's own wildcards and escape character, escaped so a value is matched literally (with ESCAPE '\\'). */
export const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (ch) => `\\${ch}`)

/**
 * Parses an OData $filter and returns a parameterised boolean SQL fragment for `.where()`.
 * An empty or blank filter matches everything, like an absent one.
 */
export function buildFilter(text: string, fields: FieldMap): RawBuilder<SqlBool> {
  if (text.trim() === '') return sql<SqlBool>`true`
  return translate(parseFilter(text), fields)
}

function translate(expr: Expr, fields: FieldMap): RawBuilder<SqlBool> {
  switch (expr.kind) {
    case 'and':
    case 'or': {
      const parts = expr.operands.map((operand) => translate(operand, fields))
      return sql<SqlBool>`(${sql.join(parts, sql.raw(` ${expr.kind} `))})`
    }
    case 'not':
      // SQL would turn `not NULL` into NULL and drop the row; OData treats a comparison with
      // null as false, so its negation is true. coalesce gives OData's two-valued result.
      return sql<SqlBool>`not coalesce(${translate(expr.operand, fields)}, false)`
    case 'compare':
      return compare(expr.op, expr.opToken, resolveField(fields, expr.field, '$filter'), expr.value)
    case 'in':
      return inList(resolveField(fields, expr.field, '$filter'), expr.values)
    case 'function':
      return textMatch(expr.name, expr.nameToken, resolveField(fields, expr.field, '$filter'), expr.value)
  }
}

function compare(op: CompareOp, opToken: Token, field: ResolvedField, literal: Literal): RawBuilder<SqlBool> {
  const column = columnOf(field)
  if (literal.kind === 'null') {
    if (op === 'eq') return sql<SqlBool>`${column} is null`
    if (op === 'ne') return sql<SqlBool>`${column} is not null`
    throw invalidField('$filter', `'${op}' cannot compare with null ${at(literal.token.pos)}; use eq or ne`)
  }
  if (op !== 'eq' && op !== 'ne' && !ORDERED_TYPES.includes(field.spec.type)) {
    throw invalidField(
      '$filter',
      `'${opToken.raw}' ${at(opToken.pos)} is not allowed on ${field.spec.type} field '${field.name}'; use eq or ne`,
    )
  }
  return sql<SqlBool>`${column} ${sql.raw(OPERATORS[op])} ${param(bindValue(literal, field))}`
}

function inList(field: ResolvedField, literals: readonly Literal[]): RawBuilder<SqlBool> {
  // One parameter per value (at most MAX_IN_ITEMS) keeps each value's cast and the column's type
  // inference exactly as for `eq`, which a single array parameter would not.
  const values = literals.map((literal) => param(bindValue(notNull(literal, "'in' values"), field)))
  return sql<SqlBool>`${columnOf(field)} in (${sql.join(values)})`
}

function textMatch(
  name: FunctionName,
  nameToken: Token,
  field: ResolvedField,
  literal: Literal,
): RawBuilder<SqlBool> {
  if (!TEXT_TYPES.includes(field.spec.type)) {
    throw invalidField(
      '$filter',
      `${name}() ${at(nameToken.pos)} needs a string field; '${field.name}' is ${field.spec.type}`,
    )
  }
  const value = notNull(literal, `${name}()`)
  if (value.kind !== 'string') {
    throw invalidField(
      '$filter',
      `${name}() needs a quoted string, got ${describe(value.token)} ${at(value.token.pos)}`,
    )
  }
  const escaped = escapeLike(value.value)
  const pattern = name === 'contains' ? `%${escaped}%` : name === 'startswith' ? `${escaped}%` : `%${escaped}`
  return sql<SqlBool>`${columnOf(field)} ilike ${pattern} escape '\\'`
}

function notNull(literal: Literal, where: string): ValueLiteral {
  if (literal.kind !== 'null') return literal
  throw invalidField('$filter', `${where} cannot be null ${at(literal.token.pos)}`)
}

/** Column refs come only from our FieldMap; a map key is user text, so it is a parameter too. */
function columnOf(field: ResolvedField): RawBuilder<unknown> {
  const ref = sql.ref(field.spec.column)
  return field.key === undefined ? sql`${ref}` : sql`(${ref} ->> ${field.key}::text)`
}

function param(bound: Bound): RawBuilder<unknown> {
  return bound.cast ? sql`${bound.value}::${sql.raw(bound.cast)}` : sql`${bound.value}`
}
