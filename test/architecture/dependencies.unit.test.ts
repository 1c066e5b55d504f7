import { describe, expect, it } from 'vitest'
import { type SourceImport, sourceImports } from './imports.js'

/**
 * Dependencies point downward. Each top-level part of src/ may import only the parts listed for
 * it (and itself); tests and fixtures are exempt. Between areas (`modules/<area>/`): an area reaches
 * another only through that area's index.ts, the surface it chose to export, and no two areas
 * depend on each other, directly or round a longer cycle. Inside an area: a module reaches a
 * sibling module only through the sibling's own index.ts (or not at all), may use the files the
 * area keeps at its root (shared helpers, its index.ts), and no two modules depend on each other.
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
/** `<area>/<module>` for a file inside a module's folder; undefined for an area's root files. */
const moduleOf = (file: string) => {
  const parts = file.split('/')
  return parts[0] === 'modules' && parts.length >= 4 ? `${parts[1]}/${parts[2]}` : undefined
}

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

function moduleViolations(imports: readonly SourceImport[]): string[] {
  return imports
    .filter(({ from, to }) => {
      const [own, target] = [moduleOf(from), moduleOf(to)]
      return (
        own && target && own !== target && areaOf(from) === areaOf(to) && to !== `modules/${target}/index.ts`
      )
    })
    .map(({ from, to }) => `${from} -> ${to}`)
}

/** Each cycle of the graph `edges` (name -> names it depends on), as `a -> b -> a`. */
function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const cycles: string[] = []
  const done = new Set<string>()
  const visit = (node: string, path: string[]) => {
    const at = path.indexOf(node)
    if (at >= 0) {
      cycles.push([...path.slice(at), node].join(' -> '))
      return
    }
    if (done.has(node)) return
    for (const next of [...(edges.get(node) ?? [])].sort()) visit(next, [...path, node])
    done.add(node)
  }
  for (const node of [...edges.keys()].sort()) visit(node, [])
  return cycles
}

/** The graph between the parts `of` names (areas, or modules), from the imports that cross them. */
function graphOf(imports: readonly SourceImport[], of: (file: string) => string | undefined) {
  const edges = new Map<string, Set<string>>()
  for (const { from, to } of imports) {
    const [own, target] = [of(from), of(to)]
    if (!own || !target || own === target) continue
    if (!edges.has(own)) edges.set(own, new Set())
    edges.get(own)?.add(target)
  }
  return edges
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

  it('form no cycle between areas', () => {
    expect(cyclesOf(graphOf(imports, areaOf))).toEqual([])
  })

  it('cross between modules of one area only through the target module’s index.ts', () => {
    expect(moduleViolations(imports)).toEqual([])
  })

  it('form no cycle between modules', () => {
    expect(cyclesOf(graphOf(imports, moduleOf))).toEqual([])
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
    expect(
      moduleViolations([
        {
          from: 'modules/delivery/plans/plans.service.ts',
          to: 'modules/delivery/shipments/shipments.repository.ts',
        },
        { from: 'modules/delivery/plans/plans.service.ts', to: 'modules/delivery/shipments/index.ts' },
        { from: 'modules/manufacturing/boms/boms.service.ts', to: 'modules/manufacturing/decimals.ts' },
        { from: 'modules/delivery/index.ts', to: 'modules/delivery/shipments/shipments.service.ts' },
      ]),
    ).toEqual([
      'modules/delivery/plans/plans.service.ts -> modules/delivery/shipments/shipments.repository.ts',
    ])
    // The cycle this rule removed: per-customer settings lived in organisation and read customers.
    expect(
      cyclesOf(
        graphOf(
          [
            { from: 'modules/customers/attachments/a.service.ts', to: 'modules/organisation/index.ts' },
            { from: 'modules/organisation/settings/c.service.ts', to: 'modules/customers/index.ts' },
            { from: 'modules/sales/orders/o.service.ts', to: 'modules/customers/index.ts' },
          ],
          areaOf,
        ),
      ),
    ).toEqual(['customers -> organisation -> customers'])
    expect(
      cyclesOf(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
          ['c', new Set(['a'])],
        ]),
      ),
    ).toEqual(['a -> b -> c -> a'])
  })
})
