import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { MODULES } from '../../src/apps/modules.js'
import { SRC } from './imports.js'

/**
 * Every module follows the template of CONTRIBUTING.md: routes declared with `operation()`, SQL
 * only in repositories, and a module declaration that the app lists.
 */
const MODULES_DIR = path.join(SRC, 'modules')

function filesEndingWith(suffix: string, dir = MODULES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return filesEndingWith(suffix, full)
    return entry.name.endsWith(suffix) ? [full] : []
  })
}

const relative = (file: string) => path.relative(SRC, file)

/** Statements a service must leave to its repository (starting its transaction is the service's). */
const SQL_IN_CODE = /sql`|\.(selectFrom|insertInto|updateTable|deleteFrom|withSchema|executeQuery)\(/

/** What `operation()` writes for a route, so a route file that writes it by hand went around it. */
const HAND_DECLARED_ROUTE = /\baccess: \{|errorResponses\(/

function offending(files: readonly string[], pattern: RegExp): string[] {
  return files.filter((file) => pattern.test(readFileSync(file, 'utf8'))).map(relative)
}

describe('the module template', () => {
  const services = filesEndingWith('.service.ts')
  const routes = filesEndingWith('.routes.ts')

  it('is read from every module', () => {
    expect(services.length).toBeGreaterThan(40)
    expect(routes.length).toBeGreaterThan(35)
  })

  it('keeps SQL in repositories: no service builds or runs a statement', () => {
    expect(offending(services, SQL_IN_CODE)).toEqual([])
  })

  it('declares every route with operation()', () => {
    expect(offending(routes, HAND_DECLARED_ROUTE)).toEqual([])
    const withoutOperation = routes.filter((file) => {
      const text = readFileSync(file, 'utf8')
      return /\bapp\.(get|post|put|patch|delete)\(/.test(text) && !/\boperation\(/.test(text)
    })
    expect(withoutOperation.map(relative)).toEqual([])
  })

  it('lists every module declaration in apps/modules.ts, once', () => {
    const declared = filesEndingWith('.module.ts').map((file) =>
      path.relative(MODULES_DIR, path.dirname(file)),
    )
    expect(MODULES.map((m) => m.name).sort()).toEqual(declared.sort())
  })

  it('would catch a service that runs SQL or a route declared by hand', () => {
    expect(SQL_IN_CODE.test('await db.withSchema(schema).selectFrom("x")')).toBe(true)
    expect(SQL_IN_CODE.test('database.db.transaction().execute(async (trx) => repository.save(trx))')).toBe(
      false,
    )
    expect(HAND_DECLARED_ROUTE.test('{ config: { access: { public: true } }, schema: {} }')).toBe(true)
    expect(HAND_DECLARED_ROUTE.test("...errorResponses('core', 400)")).toBe(true)
  })
})
