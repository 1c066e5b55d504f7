import { type Compilable, CompiledQuery } from 'kysely'
import { withSchemaAffinity } from './lane-pool.js'
import { forgetPrepared, registerPrepared } from './prepared.js'
import type { Executor } from './tables.js'

/**
 * Building and compiling a Kysely query costs 20-120 µs; a fixed-shape statement only changes its
 * schema name (part of the SQL text) and its values. A `SchemaStatement` compiles once per schema
 * with a marker in place of each named value, remembers which parameter is which, and afterwards
 * only fills an array. Compiled texts live in a bounded least-recently-used map, so thousands of
 * organisations cost at most `limit` entries (about 1-3 KB each) per statement.
 */
const MARK = '\u0000cartage-value:'

/** A value whose place is named now and filled on each run: only pass it where Kysely binds a value. */
type Placeholders<Values> = { readonly [K in keyof Values]: Values[K] }

type Slot = { name: string } | { value: unknown }

interface Entry {
  sql: string
  slots: Slot[]
}

const placeholders = <Values>(): Placeholders<Values> =>
  new Proxy({} as Placeholders<Values>, { get: (_target, key) => `${MARK}${String(key)}` })

export const DEFAULT_SCHEMA_LIMIT = 1_000

export class SchemaStatement<Values extends Record<string, unknown>, Row> {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly build: (
      db: Executor,
      schemaName: string,
      values: Placeholders<Values>,
    ) => Compilable<Row>,
    private readonly limit = DEFAULT_SCHEMA_LIMIT,
  ) {}

  /** How many schemas have a compiled text now (never more than the limit). */
  get size(): number {
    return this.entries.size
  }

  compiled(db: Executor, schemaName: string, values: Values): CompiledQuery<Row> {
    const entry = this.entry(db, schemaName)
    const parameters = entry.slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value))
    return CompiledQuery.raw(entry.sql, parameters) as CompiledQuery<Row>
  }

  /** Sent on the schema's home connection when it is free (db/lane-pool.ts), where it is prepared. */
  async execute(db: Executor, schemaName: string, values: Values): Promise<Row[]> {
    const query = this.compiled(db, schemaName, values)
    return (await withSchemaAffinity(schemaName, () => db.executeQuery(query))).rows
  }

  async takeFirst(db: Executor, schemaName: string, values: Values): Promise<Row | undefined> {
    return (await this.execute(db, schemaName, values))[0]
  }

  private entry(db: Executor, schemaName: string): Entry {
    const cached = this.entries.get(schemaName)
    if (cached) {
      // Most recently used last: Map keeps insertion order, so the first key is the one to evict.
      this.entries.delete(schemaName)
      this.entries.set(schemaName, cached)
      return cached
    }
    const compiled = this.build(db, schemaName, placeholders<Values>()).compile()
    const entry: Entry = {
      // A fresh flat copy: the compiler's text is a rope of hundreds of small pieces (~7 KB held).
      sql: Buffer.from(compiled.sql).toString(),
      slots: compiled.parameters.map((value) =>
        typeof value === 'string' && value.startsWith(MARK) ? { name: value.slice(MARK.length) } : { value },
      ),
    }
    this.entries.set(schemaName, entry)
    registerPrepared(entry.sql)
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) {
        forgetPrepared(this.entries.get(oldest)?.sql ?? '')
        this.entries.delete(oldest)
      }
    }
    return entry
  }
}
