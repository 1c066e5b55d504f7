/**
 * OData subset for list endpoints: `$filter` to a parameterised SQL condition, `$orderby` to
 * trusted sort columns. Errors are 400 AppErrors naming the parameter; positions are 1-based.
 */
export type { FieldMap, FieldSpec, FieldType } from './fields.js'
export { MAX_INPUT_LENGTH } from './lexer.js'
export { buildOrderBy, MAX_ORDER_TERMS, type OrderTerm } from './orderby.js'
export { MAX_DEPTH, MAX_IN_ITEMS } from './parser.js'
export { buildFilter, escapeLike } from './translate.js'
