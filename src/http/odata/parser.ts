import { at, describe, type Token, TokenStream, tokenize } from './lexer.js'

/** Nesting limit (parentheses and `not`); keeps recursion and generated SQL bounded. */
export const MAX_DEPTH = 32
export const MAX_IN_ITEMS = 100

export type CompareOp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le'
export type FunctionName = 'contains' | 'startswith' | 'endswith'

const COMPARE_OPS: readonly string[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] satisfies CompareOp[]
const FUNCTIONS: readonly string[] = ['contains', 'startswith', 'endswith'] satisfies FunctionName[]

/** A field as the client wrote it; `key` is set for `map/key`. Resolution against the FieldMap is later. */
export interface FieldRef {
  name: string
  key?: string
  pos: number
}

export type Literal =
  | { kind: 'string' | 'number' | 'datetime' | 'guid'; value: string; token: Token }
  | { kind: 'boolean'; value: boolean; token: Token }
  | { kind: 'null'; token: Token }

export type Expr =
  | { kind: 'and' | 'or'; operands: Expr[] }
  | { kind: 'not'; operand: Expr }
  | { kind: 'compare'; op: CompareOp; field: FieldRef; value: Literal; opToken: Token }
  | { kind: 'in'; field: FieldRef; values: Literal[] }
  | { kind: 'function'; name: FunctionName; field: FieldRef; value: Literal; nameToken: Token }

/**
 * Parses a $filter expression. Precedence, loosest first: or, and, not, then comparisons;
 * parentheses group. Recursive descent with one function per level.
 */
export function parseFilter(text: string): Expr {
  const parser = new FilterParser(new TokenStream(tokenize(text, '$filter'), '$filter'))
  return parser.parse()
}

/** Parses `name` or `name/key`; shared with $orderby. */
export function parseFieldRef(tokens: TokenStream): FieldRef {
  const name = tokens.expect('ident', 'a field name')
  if (tokens.peek().kind !== '/') return { name: name.value, pos: name.pos }
  tokens.next()
  return { name: name.value, key: tokens.expect('key', 'a key').value, pos: name.pos }
}

class FilterParser {
  private depth = 0

  constructor(private readonly tokens: TokenStream) {}

  parse(): Expr {
    const expr = this.parseOr()
    const rest = this.tokens.peek()
    if (rest.kind !== 'eof') {
      throw this.tokens.error(`expected 'and', 'or' or end of input ${at(rest.pos)}, got ${describe(rest)}`)
    }
    return expr
  }

  private parseOr(): Expr {
    return this.parseChain('or', () => this.parseAnd())
  }

  private parseAnd(): Expr {
    return this.parseChain('and', () => this.parseUnary())
  }

  /** `a and b and c` becomes one n-ary node, so long chains do not deepen recursion later. */
  private parseChain(kind: 'and' | 'or', operand: () => Expr): Expr {
    const operands = [operand()]
    while (this.tokens.isKeyword(kind)) {
      this.tokens.next()
      operands.push(operand())
    }
    return operands.length === 1 ? operands[0]! : { kind, operands }
  }

  private parseUnary(): Expr {
    if (this.tokens.isKeyword('not')) {
      return this.nested(this.tokens.next(), () => ({ kind: 'not', operand: this.parseUnary() }))
    }
    if (this.tokens.peek().kind === '(') {
      return this.nested(this.tokens.next(), () => {
        const inner = this.parseOr()
        this.tokens.expect(')', "')'")
        return inner
      })
    }
    return this.parsePredicate()
  }

  private nested(opener: Token, parse: () => Expr): Expr {
    if (++this.depth > MAX_DEPTH) {
      throw this.tokens.error(`expression is nested deeper than ${MAX_DEPTH} levels ${at(opener.pos)}`)
    }
    const expr = parse()
    this.depth--
    return expr
  }

  /** A comparison, an `in` list or a function call: the leaves of the tree. */
  private parsePredicate(): Expr {
    const first = this.tokens.peek()
    if (first.kind === 'ident' && this.tokens.peek(1).kind === '(') return this.parseFunction()
    const field = parseFieldRef(this.tokens)
    const opToken = this.tokens.peek()
    const op = opToken.kind === 'ident' ? opToken.value.toLowerCase() : ''
    if (op === 'in') {
      this.tokens.next()
      return { kind: 'in', field, values: this.parseList() }
    }
    if (!COMPARE_OPS.includes(op)) {
      throw this.tokens.error(
        `expected an operator (eq, ne, gt, ge, lt, le, in) ${at(opToken.pos)}, got ${describe(opToken)}`,
      )
    }
    this.tokens.next()
    return { kind: 'compare', op: op as CompareOp, field, value: this.parseLiteral(), opToken }
  }

  private parseFunction(): Expr {
    const nameToken = this.tokens.next()
    const name = nameToken.value.toLowerCase()
    if (!FUNCTIONS.includes(name)) {
      throw this.tokens.error(
        `unsupported function ${describe(nameToken)} ${at(nameToken.pos)}; supported: ${FUNCTIONS.join(', ')}`,
      )
    }
    this.tokens.expect('(', "'('")
    const field = parseFieldRef(this.tokens)
    this.tokens.expect(',', "','")
    const value = this.parseLiteral()
    this.tokens.expect(')', "')'")
    return { kind: 'function', name: name as FunctionName, field, value, nameToken }
  }

  private parseList(): Literal[] {
    const open = this.tokens.expect('(', "'(' after 'in'")
    if (this.tokens.peek().kind === ')') {
      throw this.tokens.error(`'in' needs at least one value ${at(this.tokens.peek().pos)}`)
    }
    const values = [this.parseLiteral()]
    while (this.tokens.peek().kind === ',') {
      this.tokens.next()
      values.push(this.parseLiteral())
      if (values.length > MAX_IN_ITEMS) {
        throw this.tokens.error(`'in' list starting ${at(open.pos)} has more than ${MAX_IN_ITEMS} values`)
      }
    }
    this.tokens.expect(')', "',' or ')'")
    return values
  }

  private parseLiteral(): Literal {
    const token = this.tokens.next()
    switch (token.kind) {
      case 'string':
      case 'number':
      case 'datetime':
      case 'guid':
        return { kind: token.kind, value: token.value, token }
      case 'ident': {
        const word = token.value.toLowerCase()
        if (word === 'true' || word === 'false') return { kind: 'boolean', value: word === 'true', token }
        if (word === 'null') return { kind: 'null', token }
      }
    }
    throw this.tokens.error(`expected a value ${at(token.pos)}, got ${describe(token)}`)
  }
}
