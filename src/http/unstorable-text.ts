import type { FastifyInstance } from 'fastify'
import { invalidField } from '../errors.js'

/**
 * U+0000 (which PostgreSQL cannot store in text) and unpaired UTF-16 surrogates (which are not
 * text at all) anywhere in a body, query string, path parameter or header are a 400 naming the
 * field, on every route, before validation or a handler sees them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding U+0000 is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export const isUnstorable = (text: string) => UNSTORABLE.test(text)

/** Shows the offending characters as escapes, so the reason itself is clean text. */
const printable = (key: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding U+0000 is the point
  key.replace(/[\u0000\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/**
 * Path (dot-separated, as in validation reasons) of the first unstorable string or key in
 * `value`, or undefined. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findUnstorable(value: unknown, root = ''): string | undefined {
  if (value === undefined || value === null) return undefined
  const flat = findInFlat(value, root)
  if (flat !== NOT_FLAT) return flat
  const stack: [unknown, string][] = [[value, root]]
  while (stack.length > 0) {
    const [node, path] = stack.pop() as [unknown, string]
    if (typeof node === 'string') {
      if (UNSTORABLE.test(node)) return path
      continue
    }
    if (node === null || typeof node !== 'object') continue
    // Only strings and containers are visited (and given a path): a large body is mostly numbers,
    // such as a zone's 20,000 positions.
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const item: unknown = node[i]
        if (typeof item === 'string' || (typeof item === 'object' && item !== null))
          stack.push([item, path ? `${path}.${i}` : String(i)])
      }
      continue
    }
    const keys = Object.keys(node)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string
      if (UNSTORABLE.test(key)) return path ? `${path}.${printable(key)}` : printable(key)
      const item = (node as Record<string, unknown>)[key]
      if (typeof item === 'string' || (typeof item === 'object' && item !== null))
        stack.push([item, path ? `${path}.${key}` : key])
    }
  }
  return undefined
}

const NOT_FLAT = Symbol('not flat')

/**
 * The same for an object of strings (headers, path parameters, most query strings): no stack and
 * no path built for each entry. Keys are checked last to first, then values first to last, the
 * order findUnstorable reports in.
 */
function findInFlat(value: unknown, root: string): string | undefined | typeof NOT_FLAT {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return NOT_FLAT
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  for (const key of keys) {
    const child = record[key]
    if (typeof child === 'object' && child !== null) return NOT_FLAT
  }
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i] as string
    if (UNSTORABLE.test(key)) return root ? `${root}.${printable(key)}` : printable(key)
  }
  for (const key of keys) {
    const child = record[key]
    if (typeof child === 'string' && UNSTORABLE.test(child)) return root ? `${root}.${key}` : key
  }
  return undefined
}

const MESSAGE = 'must not contain U+0000 or an unpaired surrogate'

export function installUnstorableTextGuard(app: FastifyInstance) {
  // A callback hook: it runs on every request, and needs no promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const field =
      findUnstorable(request.params) ??
      findUnstorable(request.query) ??
      findUnstorable(request.headers) ??
      findUnstorable(request.body, '')
    done(field === undefined ? undefined : invalidField(field || 'body', MESSAGE))
  })
}
