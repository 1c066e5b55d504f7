import { readdirSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../test/harness.js'
import { MAIN_CLUSTER } from './clusters.js'

/**
 * The table declarations (`*.tables.ts`, merged into `Tables`) against the tables the migrations
 * create: the same tables, the same columns, the same nullability, and a TypeScript type that
 * matches what the driver hands back for the column's PostgreSQL type. Read with the TypeScript
 * compiler, so a declaration that drifts from its migration fails here, not in production.
 */

const SRC = path.resolve(import.meta.dirname, '..')

type Kind = 'string' | 'number' | 'boolean' | 'Date' | 'Buffer' | 'array' | 'json'
interface ColumnShape {
  kind: Kind
  nullable: boolean
}
type TableShapes = Map<string, Map<string, ColumnShape>>

function tableFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return tableFiles(full)
    return entry.name.endsWith('.tables.ts') ? [full] : []
  })
}

/** What the driver hands back for a PostgreSQL type (db/database.ts sets int8 to number). */
function kindOfPgType(type: string): Kind {
  if (type.startsWith('_')) return 'array'
  if (['text', 'varchar', 'uuid', 'numeric', 'bpchar', 'citext', 'date', 'interval'].includes(type))
    return 'string'
  if (['int2', 'int4', 'int8', 'float4', 'float8'].includes(type)) return 'number'
  if (type === 'bool') return 'boolean'
  if (type === 'timestamptz' || type === 'timestamp') return 'Date'
  if (type === 'bytea') return 'Buffer'
  if (type === 'jsonb' || type === 'json') return 'json'
  throw new Error(`no TypeScript kind for PostgreSQL type ${type}`)
}

function declaredTables(): TableShapes {
  const files = [path.join(SRC, 'db/tables.ts'), ...tableFiles(SRC)]
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(path.join(SRC, 'db/tables.ts'))
  if (!source) throw new Error('db/tables.ts not in the program')
  const moduleSymbol = checker.getSymbolAtLocation(source)
  const tablesSymbol =
    moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.name === 'Tables')
  if (!tablesSymbol) throw new Error('no Tables interface')
  const tables = checker.getDeclaredTypeOfSymbol(tablesSymbol)

  const shapeOf = (type: ts.Type, where: string): ColumnShape => {
    // Kysely's ColumnType<Select, Insert, Update> (and Generated) keep the read type in __select__.
    const selected = type.getProperty('__select__')
    const read = selected ? checker.getTypeOfSymbol(selected) : type
    const parts = read.isUnion() ? read.types : [read]
    const nullable = parts.some((part) => part.flags & ts.TypeFlags.Null)
    const present = parts.filter((part) => !(part.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)))
    const kinds = new Set<Kind>(
      present.map((part): Kind => {
        if (part.flags & ts.TypeFlags.StringLike) return 'string'
        if (part.flags & ts.TypeFlags.NumberLike) return 'number'
        if (part.flags & ts.TypeFlags.BooleanLike) return 'boolean'
        if (part.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return 'json'
        if (checker.isArrayType(part)) return 'array'
        const name = part.getSymbol()?.name
        if (name === 'Date') return 'Date'
        if (name === 'Buffer') return 'Buffer'
        return 'json'
      }),
    )
    if (kinds.size !== 1) throw new Error(`${where}: one kind expected, read as ${[...kinds].join(' | ')}`)
    return { kind: [...kinds][0] as Kind, nullable }
  }

  const shapes: TableShapes = new Map()
  for (const table of tables.getProperties()) {
    const columns = new Map<string, ColumnShape>()
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      columns.set(column.name, shapeOf(checker.getTypeOfSymbol(column), `${table.name}.${column.name}`))
    }
    shapes.set(table.name, columns)
  }
  return shapes
}

const ctx = useTestContext()

const columnsOf = (schema: string) => sql<{
  schema: string
  table: string
  column: string
  type: string
  notnull: boolean
  generated: boolean
}>`
  SELECT n.nspname AS schema, c.relname AS table, a.attname AS column, t.typname AS type,
         a.attnotnull AS notnull, a.attgenerated <> '' AS generated
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_type t ON t.oid = a.atttypid
  WHERE c.relkind IN ('r', 'p') AND n.nspname = ${schema}`

/** The global tables as main holds them, the organisation's on its own cluster (DATABASE_CLUSTERS). */
async function migratedTables(tenantSchema: string, declared: TableShapes): Promise<TableShapes> {
  // The schema is a parameter, not in the text the router reads: each statement goes to its cluster.
  const clusters = ctx.database.clusters
  const main = clusters ? clusters.db(MAIN_CLUSTER) : ctx.database.db
  const itsCluster = clusters ? clusters.db(await clusters.clusterOf(tenantSchema)) : ctx.database.db
  const rows = [
    ...(await columnsOf('global').execute(main)).rows,
    ...(await columnsOf(tenantSchema).execute(itsCluster)).rows,
  ]
  const shapes: TableShapes = new Map()
  for (const row of rows) {
    const key = row.schema === 'global' ? `global.${row.table}` : row.table
    const columns = shapes.get(key) ?? new Map<string, ColumnShape>()
    // A generated column is null only when its inputs are: its declaration may say what they imply.
    const declaredNullability = row.generated ? declared.get(key)?.get(row.column)?.nullable : undefined
    columns.set(row.column, {
      kind: kindOfPgType(row.type),
      nullable: declaredNullability ?? !row.notnull,
    })
    shapes.set(key, columns)
  }
  return shapes
}

const sorted = (shapes: TableShapes) =>
  Object.fromEntries(
    [...shapes.keys()]
      .sort()
      .map((table) => [table, Object.fromEntries([...(shapes.get(table) ?? new Map())].sort())]),
  )

describe('table declarations', () => {
  it('match the tables, columns, nullability and types the migrations create', async () => {
    const owner = await ownerSession(ctx)
    const declared = declaredTables()
    const migrated = await migratedTables(await schemaOf(ctx, owner.org.businessId), declared)
    expect(declared.size).toBeGreaterThan(30)
    expect(sorted(declared)).toEqual(sorted(migrated))
  })
})
