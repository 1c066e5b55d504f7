import { Ajv, type AnySchema, type Options, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { installEmptyBodyRule } from './empty-body.js'
import { enumKeywordPlugin } from './enums.js'
import { type InputIssue, normalise, type Shape, shapeOf } from './input-shape.js'
import { installUnknownQueryRule } from './unknown-query.js'
import { installUnstorableTextGuard } from './unstorable-text.js'

/**
 * Input rules, applied by the validator every route gets (docs/architecture.md, "Input rules"):
 * - bodies are JSON and taken as sent: no type coercion (`"12"` is not a number, null is not 0);
 *   query strings, path parameters and headers arrive as text and are coerced, but their numbers
 *   must be decimal digits (`0x10`, `1e1`, `+5`, ` 5` are refused);
 * - property names and query parameter names match the declared ones regardless of letter case;
 *   free-form maps keep their keys as sent; two names differing only in case are a 400;
 * - a query parameter the operation does not take is a 400 naming it (unknown-query.ts);
 * - a date-time without an offset is read as UTC (`Z` is appended before the handler sees it);
 * - an absent body where the operation declares one is a 400 naming `body`.
 */
/** The input rules as published in both OpenAPI descriptions. */
export const INPUT_RULES_DESCRIPTION =
  'Input rules: JSON bodies are taken as sent (no type coercion: "12" is not a number, null is not 0); query parameter and ' +
  'body property names match regardless of letter case (free-form maps such as metadata keep their keys as sent; a name given ' +
  'twice in different cases is a 400); a query parameter the operation does not take is a 400 naming it (unknown body properties are ' +
  'ignored); integers in query strings and paths are decimal digits only; a date-time without an offset ' +
  'is read as UTC; text containing U+0000 or an unpaired surrogate is a 400 naming the field; a body that is not JSON (text/plain ' +
  'included) is a 415; an operation without a body accepts ' +
  "an empty one whatever Content-Type says. Every error, including those of the HTTP layer (404, 413, 414, 415...), has this API's error shape."

type FormatsPlugin = (ajv: Ajv) => Ajv
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as unknown as FormatsPlugin

function createAjv(coerceTypes: Options['coerceTypes'], externalSchemas: readonly unknown[]): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    allErrors: true,
    useDefaults: true,
    // Only removes properties where a schema says additionalProperties: false; other unknown
    // properties are left for the handler to ignore, as before.
    removeAdditional: true,
    addUsedSchema: false,
  })
  addFormats(ajv)
  enumKeywordPlugin(ajv)
  for (const schema of externalSchemas) ajv.addSchema(schema as AnySchema)
  return ajv
}

type HttpPart = 'body' | 'querystring' | 'params' | 'headers'

interface RouteValidator {
  (data: unknown, context?: unknown): boolean
  errors?: unknown
  schemaEnv?: unknown
}

/** Header names arrive lower-cased, so a headers schema is matched in lower case (as Fastify does). */
function lowerCaseHeaders(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, unknown> | undefined
  if (!properties) return schema
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k.toLowerCase(), v])),
    ...(Array.isArray(schema.required)
      ? { required: schema.required.map((name: unknown) => String(name).toLowerCase()) }
      : {}),
  }
}

/** Builds a route's validator for one part of the request. */
function routeValidator(ajv: Ajv, schema: unknown, httpPart: HttpPart, shape: Shape): RouteValidator {
  const compiled: ValidateFunction = ajv.compile(schema as AnySchema)
  const text = httpPart !== 'body'
  const renames = httpPart !== 'headers'
  const validator: RouteValidator = (data, context) => {
    const issues: InputIssue[] = []
    if (data !== null && data !== undefined) {
      normalise(data, renames ? shape : { ...shape, props: undefined }, '', issues, text)
    }
    if (issues.length > 0) {
      validator.errors = issues
      return false
    }
    const valid = (compiled as (d: unknown, c?: unknown) => boolean)(data, context)
    if (!valid && httpPart === 'body' && (data === null || data === undefined)) {
      validator.errors = [{ instancePath: '', keyword: 'required', message: 'is required', params: {} }]
      return false
    }
    validator.errors = compiled.errors
    return valid
  }
  // Lets Fastify hand Ajv the parent object, so defaults can be applied to the root.
  validator.schemaEnv = (compiled as { schemaEnv?: unknown }).schemaEnv
  return validator
}

/**
 * Fastify's `schemaController.compilersFactory.buildValidator`: one Ajv for JSON bodies (no
 * coercion) and one for text parts (coercion), both with formats, the enum keyword, every
 * error reported and defaults applied; shared schemas (`addSchema`) are added to both.
 */
export function buildInputValidator(
  externalSchemas: unknown,
): (route: { schema: unknown; httpPart?: string }) => RouteValidator {
  const externals = Object.values((externalSchemas ?? {}) as Record<string, unknown>)
  const bodyAjv = createAjv(false, externals)
  const textAjv = createAjv('array', externals)
  const byId = new Map<string, Record<string, unknown>>()
  for (const schema of externals) {
    const id = (schema as { $id?: unknown }).$id
    if (typeof id === 'string') byId.set(id.replace(/#$/, ''), schema as Record<string, unknown>)
  }
  const resolveRef = (ref: string) => {
    const [base, fragment] = ref.split('#')
    return base && !fragment ? byId.get(base) : undefined
  }
  return ({ schema, httpPart }) => {
    const part = (httpPart ?? 'body') as HttpPart
    const effective = part === 'headers' ? lowerCaseHeaders(schema as Record<string, unknown>) : schema
    const ajv = part === 'body' ? bodyAjv : textAjv
    return routeValidator(ajv, effective, part, shapeOf(effective, resolveRef))
  }
}

type ValidatorFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator']
/** The same, typed as Fastify's option (whose types only describe Ajv's own compile). */
export const inputValidatorFactory = buildInputValidator as unknown as ValidatorFactory

/** The request hooks of the input rules; the validator itself is a server option (kernel.ts). */
export function installInputRules(app: FastifyInstance) {
  installEmptyBodyRule(app)
  installUnstorableTextGuard(app)
  installUnknownQueryRule(app)
}
