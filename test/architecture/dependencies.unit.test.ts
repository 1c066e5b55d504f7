import { describe, expect, it } from 'vitest'
import { type SourceImport, sourceImports } from './imports.js'

/**
 * Dependencies point downward. Each top-level part of src/ may import only the parts listed for
 * it (and itself); tests and fixtures are exempt. A module area reaches another area only through
 * that area's index.ts, the surface it chose to export.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  errors: [],
  enums: [],
  db: ['errors', 'enums'],
  config: ['db', 'errors', 'enums'],
  mail: ['errors', 'enums'],
  security: ['db', 'errors', 'enums', 'config'],
  http: ['security', 'db', 'errors', 'enums', 'config'],
  platform: ['http', 'security', 'db', 'mail', 'errors', 'enums', 'config'],
  modules: ['platform', 'http', 'security', 'db', 'mail', 'errors', 'enums', 'config'],
  console: ['http', 'security', 'db', 'errors', 'enums', 'config'],
  apps: ['console', 'modules', 'platform', 'http', 'security', 'db', 'mail', 'errors', 'enums', 'config'],
  cli: ['apps', 'modules', 'platform', 'http', 'security', 'db', 'mail', 'errors', 'enums', 'config'],
  main: ['cli', 'apps', 'platform', 'http', 'security', 'db', 'mail', 'errors', 'enums', 'config'],
}

const partOf = (file: string) => (file.split('/')[0] ?? '').replace(/\.ts$/, '')
const areaOf = (file: string) => (file.startsWith('modules/') ? file.split('/')[1] : undefined)

function layerViolations(imports: readonly SourceImport[]): string[] {
  return imports
    .filter(({ from, to }) => {
      const [own, target] = [partOf(from), partOf(to)]
      return own !== target && !(MAY_IMPORT[own] ?? []).includes(target)
    })
    .map(({ from, to }) => `${from} -> ${to}`)
}

function areaViolations(imports: readonly SourceImport[]): string[] {
  return imports
    .filter(({ from, to }) => {
      const [own, target] = [areaOf(from), areaOf(to)]
      return own && target && own !== target && to !== `modules/${target}/index.ts`
    })
    .map(({ from, to }) => `${from} -> ${to}`)
}

describe('source dependencies', () => {
  const imports = sourceImports()

  it('are read from every source file', () => {
    expect(imports.length).toBeGreaterThan(1000)
    expect(imports).toContainEqual({ from: 'apps/modules.ts', to: 'platform/module.ts' })
  })

  it('point downward: no part of src/ imports a part above it', () => {
    expect(layerViolations(imports)).toEqual([])
  })

  it('cross between module areas only through the target area’s index.ts', () => {
    expect(areaViolations(imports)).toEqual([])
  })

  it('are caught when they break a rule', () => {
    expect(
      layerViolations([
        { from: 'modules/delivery/vehicles/vehicles.routes.ts', to: 'apps/modules.ts' },
        { from: 'security/permissions.ts', to: 'http/enums.ts' },
      ]),
    ).toHaveLength(2)
    expect(
      areaViolations([
        {
          from: 'modules/sales/orders/orders.service.ts',
          to: 'modules/customers/customers/customers.repository.ts',
        },
        { from: 'modules/sales/orders/orders.service.ts', to: 'modules/customers/index.ts' },
      ]),
    ).toEqual([
      'modules/sales/orders/orders.service.ts -> modules/customers/customers/customers.repository.ts',
    ])
  })
})
