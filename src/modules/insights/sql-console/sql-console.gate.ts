import { parse } from 'libpg-query'
import type { ConsoleViews } from '../../../platform/module.js'

/** Functions a query may call: aggregates, maths, string, date/time, JSON and conditional ones. */
const ALLOWED_FUNCTIONS = new Set(
  (
    'count sum avg min max bool_and bool_or every string_agg array_agg json_agg jsonb_agg json_object_agg ' +
    'jsonb_object_agg stddev stddev_pop stddev_samp variance var_pop var_samp percentile_cont percentile_disc mode ' +
    'row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value ' +
    'abs ceil ceiling floor round trunc sign sqrt cbrt power pow exp ln log log10 mod div greatest least width_bucket ' +
    'length char_length character_length octet_length lower upper initcap trim btrim ltrim rtrim lpad rpad substr ' +
    'substring position strpos replace left right concat concat_ws split_part reverse repeat starts_with format ' +
    'regexp_replace regexp_match regexp_matches to_char to_number to_date to_timestamp ' +
    'now current_date date_trunc date_part extract age make_date make_interval make_timestamp justify_days ' +
    'justify_hours justify_interval date_bin timezone ' +
    'json_build_object jsonb_build_object json_build_array jsonb_build_array to_json to_jsonb jsonb_typeof ' +
    'json_typeof jsonb_array_length json_array_length jsonb_extract_path jsonb_extract_path_text ' +
    'json_extract_path json_extract_path_text jsonb_strip_nulls jsonb_pretty row_to_json ' +
    'coalesce nullif'
  ).split(' '),
)

/** Node kinds that never belong in a read-only query (or let it reach beyond the exposed tables). */
const REFUSED_NODES: Record<string, string> = {
  IntoClause: 'SELECT INTO is not allowed',
  LockingClause: 'locking clauses (FOR UPDATE/SHARE) are not allowed',
  RangeTableFunc: 'XMLTABLE is not allowed',
  RangeTableSample: 'TABLESAMPLE is not allowed',
  XmlExpr: 'XML functions are not allowed',
}

export class GateError extends Error {
  constructor(
    message: string,
    readonly position?: number,
  ) {
    super(message)
  }
}

type Node = Record<string, unknown>

/** The most rows one generate_series may produce: it is the console's only row source besides the tables. */
export const MAX_SERIES_ROWS = 100_000

/** A whole-number literal (the parser folds a leading minus into the constant), else null. */
function integerLiteral(node: unknown): number | null {
  const constant = (node as { A_Const?: { ival?: { ival?: number } } } | undefined)?.A_Const
  if (!constant?.ival) return null
  return constant.ival.ival ?? 0
}

/**
 * Functions in FROM: only `generate_series(start, stop[, step])` with whole-number literals and at
 * most MAX_SERIES_ROWS values, so its size is known before anything runs (the embedded database
 * cannot cancel a running query). Returns the FuncCall nodes it approved.
 */
function approveRangeFunction(node: Node): Node[] {
  if (node.is_rowsfrom) throw new GateError('ROWS FROM is not allowed')
  const calls = (Array.isArray(node.functions) ? node.functions : []).map(
    (entry) => (entry as { List?: { items?: unknown[] } }).List?.items?.[0] as Node | undefined,
  )
  return calls.map((call) => {
    const funcCall = call?.FuncCall as Node | undefined
    const name = strings(funcCall?.funcname)
    if (!funcCall || name.length !== 1 || name[0] !== 'generate_series')
      throw new GateError(
        `functions in FROM are not allowed${name.length ? ` (${name.join('.')})` : ''}, except generate_series`,
      )
    const args = (Array.isArray(funcCall.args) ? funcCall.args : []).map(integerLiteral)
    const [start, stop, step = 1] = args
    if (
      (args.length !== 2 && args.length !== 3) ||
      start == null ||
      stop == null ||
      step == null ||
      step === 0
    )
      throw new GateError('generate_series takes whole-number literals: (start, stop[, step <> 0])')
    const rows = Math.max(0, Math.floor((stop - start) / step) + 1)
    if (rows > MAX_SERIES_ROWS)
      throw new GateError(`generate_series would make ${rows} rows (at most ${MAX_SERIES_ROWS})`)
    return funcCall
  })
}

const strings = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((item) => (item as { String?: { sval?: string } }).String?.sval ?? '') : []

/**
 * Checks a console query with the PostgreSQL parser: one plain SELECT, only allowed functions and
 * the exposed tables (or its own CTEs), no recursion, parameters $1..$parameterCount. Returns
 * the statement's text without a trailing semicolon; throws GateError saying what was refused.
 */
export async function checkQuery(
  query: string,
  parameterCount: number,
  exposed: ConsoleViews,
): Promise<string> {
  let tree: { stmts?: { stmt: Node; stmt_location?: number; stmt_len?: number }[] }
  try {
    tree = (await parse(query)) as typeof tree
  } catch (error) {
    const e = error as { message?: string; sqlDetails?: { cursorPosition?: number } }
    const position = e.sqlDetails?.cursorPosition
    throw new GateError(
      `syntax error${position !== undefined ? ` at position ${position + 1}` : ''}: ${e.message ?? 'unparseable'}`,
      position === undefined ? undefined : position + 1,
    )
  }
  const statements = tree.stmts ?? []
  if (statements.length !== 1) throw new GateError('exactly one statement is allowed')
  const statement = statements[0]?.stmt ?? {}
  if (!('SelectStmt' in statement))
    throw new GateError(`only SELECT is allowed (got ${Object.keys(statement)[0]})`)
  const approvedCalls = new Set<Node>()
  walk(statement, (kind, node) => {
    if (kind in REFUSED_NODES) throw new GateError(REFUSED_NODES[kind] as string)
    // Visited before its FuncCall: a bounded generate_series in FROM passes the function check below.
    if (kind === 'RangeFunction') for (const call of approveRangeFunction(node)) approvedCalls.add(call)
    if (kind === 'SelectStmt' && (node.withClause as Node | undefined)?.recursive)
      throw new GateError('recursive CTEs are not allowed')
    if (kind === 'CommonTableExpr') {
      const inner = node.ctequery as Node | undefined
      if (!inner || !('SelectStmt' in inner)) throw new GateError('only SELECT is allowed inside WITH')
    }
    if (kind === 'SelectStmt' && node.intoClause) throw new GateError('SELECT INTO is not allowed')
    if (kind === 'SelectStmt' && Array.isArray(node.lockingClause) && node.lockingClause.length > 0)
      throw new GateError('locking clauses (FOR UPDATE/SHARE) are not allowed')
    if (kind === 'FuncCall' && !approvedCalls.has(node)) {
      const name = strings(node.funcname)
      const plain =
        name.length === 1 ? name[0] : name.length === 2 && name[0] === 'pg_catalog' ? name[1] : null
      if (!plain || !ALLOWED_FUNCTIONS.has(plain))
        throw new GateError(`function ${name.join('.')} is not allowed`)
    }
    // session_user and current_catalog would name the application's database login and database.
    if (
      kind === 'SQLValueFunction' &&
      ['SVFOP_SESSION_USER', 'SVFOP_CURRENT_CATALOG'].includes(String(node.op))
    )
      throw new GateError(`${String(node.op).slice(6).toLowerCase()} is not allowed`)
    if (kind === 'TypeCast') {
      const type = strings((node.typeName as Node | undefined)?.names).at(-1) ?? ''
      if (type.startsWith('reg') || type === 'oid') throw new GateError(`cast to ${type} is not allowed`)
    }
    if (kind === 'ParamRef') {
      const number = Number(node.number)
      if (!(number >= 1 && number <= parameterCount))
        throw new GateError(`parameter $${number} has no value (${parameterCount} given)`)
    }
  })
  // Relations last, each name resolved in its scope: a CTE only where PostgreSQL would see one.
  // The exposed tables are CTEs the console puts around the whole query: visible everywhere in it.
  checkRelations(statement, new Set(Object.keys(exposed)))
  const start = statements[0]?.stmt_location ?? 0
  const length = statements[0]?.stmt_len ?? 0
  return length > 0 ? query.slice(start, start + length) : query.slice(start)
}

/**
 * Every relation a query names must be an exposed table (a CTE the console puts in front of the
 * whole query) or a CTE of the query visible where it is named. Names are resolved by scope as
 * PostgreSQL does: a non-recursive WITH item sees the items before it but not itself, nor those
 * after it; the body of a SELECT and its subqueries see all of its items and those of the SELECTs
 * around it; a CTE of a subquery is not seen outside. The parser has already folded unquoted names
 * to lower case (quoted ones keep theirs), so names compare exactly.
 */
function checkRelations(value: unknown, visible: ReadonlySet<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) checkRelations(item, visible)
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const [key, inner] of Object.entries(value as Node)) {
    if (key === 'SelectStmt') checkSelectRelations(inner as Node, visible)
    else if (key === 'RangeVar') checkRangeVar(inner as Node, visible)
    else checkRelations(inner, visible)
  }
}

function checkSelectRelations(select: Node, outer: ReadonlySet<string>): void {
  const withClause = select.withClause as Node | undefined
  const ctes = ((withClause?.ctes as { CommonTableExpr?: Node }[] | undefined) ?? []).flatMap((entry) =>
    entry.CommonTableExpr ? [entry.CommonTableExpr] : [],
  )
  const names = ctes.map((cte) => String(cte.ctename))
  // (Recursive WITH is refused anyway; there every item would see all of them.)
  let visible = withClause?.recursive ? new Set([...outer, ...names]) : outer
  for (const cte of ctes) {
    checkRelations(cte.ctequery, visible)
    if (!withClause?.recursive) visible = new Set([...visible, String(cte.ctename)])
  }
  for (const [key, inner] of Object.entries(select)) {
    if (key === 'withClause') continue
    // The branches of UNION/INTERSECT/EXCEPT are SELECTs without the node's name around them.
    if ((key === 'larg' || key === 'rarg') && inner) checkSelectRelations(inner as Node, visible)
    else checkRelations(inner, visible)
  }
}

function checkRangeVar(node: Node, visible: ReadonlySet<string>): void {
  const name = String(node.relname)
  if (node.schemaname || node.catalogname)
    throw new GateError(
      `relation ${[node.catalogname, node.schemaname, name].filter(Boolean).join('.')} is not allowed`,
    )
  if (!visible.has(name)) throw new GateError(`relation ${name} is not allowed`)
}

/**
 * Visits every node of the tree with its kind. The branches of a set operation (`larg`, `rarg`)
 * are SELECTs whose kind the tree leaves implicit: they are visited as `SelectStmt` too, so the
 * checks of a SELECT (recursion, INTO, locking) apply to each branch.
 */
function walk(value: unknown, visit: (kind: string, node: Node) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit)
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const [key, inner] of Object.entries(value as Node)) {
    if (/^[A-Z]/.test(key) && inner && typeof inner === 'object' && !Array.isArray(inner))
      visitNode(key, inner as Node, visit)
    else walk(inner, visit)
  }
}

function visitNode(kind: string, node: Node, visit: (kind: string, node: Node) => void): void {
  visit(kind, node)
  for (const [key, inner] of Object.entries(node)) {
    if (kind === 'SelectStmt' && (key === 'larg' || key === 'rarg') && inner && typeof inner === 'object')
      visitNode('SelectStmt', inner as Node, visit)
    else walk(inner, visit)
  }
}
