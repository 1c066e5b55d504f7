import { invalidField } from '../../errors.js'

/** The query parameter being parsed; every error names it so the client knows which one to fix. */
export type Param = '$filter' | '$orderby'

export type TokenKind =
  | 'ident'
  | 'key'
  | 'string'
  | 'number'
  | 'datetime'
  | 'guid'
  | '('
  | ')'
  | ','
  | '/'
  | 'eof'

export interface Token {
  kind: TokenKind
  /** the source text exactly as written, for error messages */
  raw: string
  /** decoded value: unquoted text for strings, otherwise the same as raw */
  value: string
  /** 0-based offset into the input */
  pos: number
}

/** Limits that stop a single request from costing much to parse or to run. */
export const MAX_INPUT_LENGTH = 2000

// Sticky regexes, tried in this order at a word start: a GUID or a date can begin with digits or hex
// letters, so they must win over numbers and identifiers. The lookahead rejects partial matches.
const END = '(?![A-Za-z0-9_.:+-])'
const GUID = new RegExp(
  `[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}${END}`,
  'y',
)
const DATETIME = new RegExp(
  `\\d{4}-\\d{2}-\\d{2}(?:[Tt]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:[Zz]|[+-]\\d{2}:\\d{2})?)?${END}`,
  'y',
)
const NUMBER = new RegExp(`-?\\d+(?:\\.\\d+)?${END}`, 'y')
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y
// Map keys (after '/') allow '-' and '.', which identifiers do not.
const KEY = /[A-Za-z0-9_.-]+/y
// The order matters: the first pattern that matches wins.
const WORDS: ReadonlyArray<readonly [TokenKind, RegExp]> = [
  ['guid', GUID],
  ['datetime', DATETIME],
  ['number', NUMBER],
  ['ident', IDENT],
]
const WHITESPACE = /\s+/y
// Used only to show the whole bad word in an error, rather than just its first character.
const BAD_WORD = /[^\s(),'/]+/y

/** 1-based position for humans; editors and people count columns from 1. */
export const at = (pos: number) => `at position ${pos + 1}`

/** How a token is shown in messages; long tokens are cut so messages stay readable. */
export function describe(token: Token): string {
  if (token.kind === 'eof') return 'end of input'
  const text = token.raw.length > 40 ? `${token.raw.slice(0, 40)}...` : token.raw
  return token.kind === 'string' ? text : `'${text}'`
}

export function tokenize(text: string, param: Param): Token[] {
  if (text.length > MAX_INPUT_LENGTH) {
    throw invalidField(param, `${param} is too long (${text.length} characters; at most ${MAX_INPUT_LENGTH})`)
  }
  const tokens: Token[] = []
  let pos = 0
  const match = (re: RegExp): string | undefined => {
    re.lastIndex = pos
    return re.exec(text)?.[0]
  }
  const push = (kind: TokenKind, raw: string, value = raw) => {
    tokens.push({ kind, raw, value, pos })
    pos += raw.length
  }

  while (pos < text.length) {
    const ws = match(WHITESPACE)
    if (ws) {
      pos += ws.length
      continue
    }
    const ch = text[pos]!
    if (ch === '(' || ch === ')' || ch === ',') {
      push(ch, ch)
    } else if (ch === '/') {
      push('/', '/')
      // The key is read right here because its character set differs from identifiers.
      const key = match(KEY)
      if (!key) throw invalidField(param, `expected a key after '/' ${at(pos - 1)}`)
      push('key', key)
    } else if (ch === "'") {
      const { raw, value } = readString(text, pos, param)
      push('string', raw, value)
    } else {
      const word = WORDS.map(([kind, re]) => ({ kind, raw: match(re) })).find((w) => w.raw !== undefined)
      if (word?.raw === undefined) {
        const bad = match(BAD_WORD) ?? ch
        throw invalidField(
          param,
          `unexpected '${bad.length > 40 ? `${bad.slice(0, 40)}...` : bad}' ${at(pos)}`,
        )
      }
      push(word.kind, word.raw)
    }
  }
  tokens.push({ kind: 'eof', raw: '', value: '', pos })
  return tokens
}

/** Reads a single-quoted string where '' stands for one quote, as OData writes it. */
function readString(text: string, start: number, param: Param): { raw: string; value: string } {
  let value = ''
  let i = start + 1
  while (i < text.length) {
    const ch = text[i]!
    if (ch === "'") {
      if (text[i + 1] !== "'") return { raw: text.slice(start, i + 1), value }
      value += "'"
      i += 2
      continue
    }
    // PostgreSQL rejects NUL in text values, which would surface as a 500 instead of a 400.
    if (ch === '\u0000') throw invalidField(param, `strings cannot contain a NUL character ${at(i)}`)
    value += ch
    i++
  }
  throw invalidField(param, `unterminated string starting ${at(start)}`)
}

/** A cursor over tokens with the small helpers both parsers need. */
export class TokenStream {
  private index = 0

  constructor(
    private readonly tokens: readonly Token[],
    readonly param: Param,
  ) {}

  peek(offset = 0): Token {
    // The last token is always eof, so clamping keeps peek total.
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!
  }

  next(): Token {
    const token = this.peek()
    if (token.kind !== 'eof') this.index++
    return token
  }

  /** True when the next token is the given keyword; keywords are case-insensitive. */
  isKeyword(word: string, offset = 0): boolean {
    const token = this.peek(offset)
    return token.kind === 'ident' && token.value.toLowerCase() === word
  }

  expect(kind: TokenKind, what: string): Token {
    const token = this.peek()
    if (token.kind !== kind) throw this.error(`expected ${what} ${at(token.pos)}, got ${describe(token)}`)
    return this.next()
  }

  error(message: string) {
    return invalidField(this.param, message)
  }
}
