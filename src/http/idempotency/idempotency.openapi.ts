import type { DeclaredRoute } from '../auth-hook.js'
import { IDEMPOTENCY_HEADER } from './idempotency.js'

type Schema = Record<string, unknown>
const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const PARAMETER_NAME = 'IdempotencyKey'

const PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request within 24 hours returns the first answer (status and body, marked `Idempotent-Replayed: true`) without doing the work again. Keys belong to the organisation; the same key for a different request is a 409 `idempotency_key_reused`, and a retry while the first request still runs waits for it (409 `idempotency_key_in_use` after 10 seconds). 1 to 255 printable ASCII characters, e.g. a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
}

/** The Idempotency-Key header, declared once under `components.parameters`, on every POST a credential makes. */
export function idempotencyForOpenApi<T>(document: T, accessTable: readonly DeclaredRoute[]): T {
  const root = document as Schema
  const paths = root.paths
  if (!isObject(paths)) return document
  let used = false
  for (const route of accessTable) {
    if (route.method !== 'POST' || 'public' in route.access) continue
    const operation = (paths[route.url.replace(/:(\w+)/g, '{$1}')] as Schema | undefined)?.post
    if (!isObject(operation)) continue
    const parameters = Array.isArray(operation.parameters) ? operation.parameters : []
    operation.parameters = [...parameters, { $ref: `#/components/parameters/${PARAMETER_NAME}` }]
    used = true
  }
  if (used) {
    if (!isObject(root.components)) root.components = {}
    const components = root.components as Schema
    components.parameters = {
      ...(isObject(components.parameters) ? components.parameters : {}),
      [PARAMETER_NAME]: PARAMETER,
    }
  }
  return document
}
