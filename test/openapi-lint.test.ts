import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core'
import {
  Document,
  type ISpectralDiagnostic,
  type RulesetDefinition,
  Spectral,
} from '@stoplight/spectral-core'
import { Json } from '@stoplight/spectral-parsers'
import { oas } from '@stoplight/spectral-rulesets'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestContext, type TestContext } from './harness.js'

// Both published documents pass the two linters integrators run on them: Redocly's `recommended`
// ruleset and Spectral's `oas` ruleset. Every error fails the test, and so does every warning but
// the ones listed here, each with the reason it stays.

interface Finding {
  rule: string
  severity: 'error' | 'warning'
  message: string
  where: string
}

/** Warnings that stay, by rule name, with why; `applies` keeps each to the findings it is about. */
const TOLERATED: Record<string, { why: string; applies: (finding: Finding) => boolean }> = {
  // Redocly
  'info-license': {
    why: 'The API is published under no licence, so there is none to name.',
    applies: () => true,
  },
  'no-ambiguous-paths': {
    why:
      "The contract's paths: /api/v1/plans/in-shipment/{shipmentId} beside /api/v1/plans/{dispatchId}/<action>. " +
      'The router matches the fixed segment first, and plan ids are UUIDs, so `in-shipment` is never read as an id.',
    applies: (finding) => finding.message.includes('`/api/v1/plans/in-shipment/{shipmentId}`'),
  },
  // Spectral
  'info-contact': {
    why: 'The product publishes no support contact; inventing one would mislead.',
    applies: () => true,
  },
}

async function redocly(source: string, name: string): Promise<Finding[]> {
  const config = await createConfig({ extends: ['recommended'] })
  const problems: NormalizedProblem[] = await lintFromString({ source, absoluteRef: `${name}.json`, config })
  return problems.map((problem) => ({
    rule: problem.ruleId,
    severity: problem.severity === 'error' ? 'error' : 'warning',
    message: problem.message,
    where: problem.location[0]?.pointer ?? '',
  }))
}

async function spectral(source: string, name: string): Promise<Finding[]> {
  const linter = new Spectral()
  // The ruleset module's declared type lacks `extends`, which only a ruleset that extends needs.
  linter.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] })
  const results: ISpectralDiagnostic[] = await linter.run(new Document(source, Json, `${name}.json`))
  // Severity 0 is an error, 1 a warning; 2 (information) and 3 (hint) are advice.
  return results
    .filter((result) => result.severity <= 1)
    .map((result) => ({
      rule: String(result.code),
      severity: result.severity === 0 ? 'error' : 'warning',
      message: result.message,
      where: result.path.join('.'),
    }))
}

const LINTERS = { redocly, spectral }

/** What the test fails on: every error, and every warning not tolerated above. */
const untolerated = (findings: Finding[]) =>
  findings
    .filter((finding) => finding.severity === 'error' || !TOLERATED[finding.rule]?.applies(finding))
    .map((finding) => `${finding.severity} ${finding.rule} at ${finding.where}: ${finding.message}`)

let ctx: TestContext
const sources: Record<'core' | 'global', string> = { core: '', global: '' }
beforeAll(async () => {
  ctx = await startTestContext()
  for (const api of ['core', 'global'] as const) {
    // As a client reaches a deployed server: by its name (a local run names localhost, which
    // Redocly rightly warns about in a published document).
    const response = await ctx[api].inject({ url: '/openapi.json', headers: { host: `${api}.cartage.test` } })
    expect(response.statusCode).toBe(200)
    sources[api] = response.body
  }
})
afterAll(() => ctx.close())

describe.each(['core', 'global'] as const)('the %s API document', (api) => {
  it.each(Object.keys(LINTERS) as (keyof typeof LINTERS)[])(
    'passes %s with no error and no untolerated warning',
    async (linter) => {
      const findings = await LINTERS[linter](sources[api], api)
      expect(untolerated(findings)).toEqual([])
    },
  )
})

describe('the linters', () => {
  it('catch what the documents used to get wrong: no servers, two names for one template, an undeclared tag', async () => {
    const document = JSON.parse(sources.core) as {
      servers?: unknown
      tags: { name: string }[]
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>
    }
    delete document.servers
    document.tags = document.tags.filter((tag) => tag.name !== 'Carriers')
    const put = document.paths['/api/v1/plans/{dispatchId}']?.put
    const parameter = put?.parameters?.find((p) => p.in === 'path')
    if (!put || !parameter) throw new Error('PUT /api/v1/plans/{dispatchId} is not in the document')
    parameter.name = 'deliveryPlanId'
    document.paths['/api/v1/plans/{deliveryPlanId}'] = { put }
    delete document.paths['/api/v1/plans/{dispatchId}']?.put
    const broken = JSON.stringify(document)

    const rules = async (linter: keyof typeof LINTERS) =>
      new Set(untolerated(await LINTERS[linter](broken, 'core')).map((line) => line.split(' ')[1]))
    expect([...(await rules('redocly'))]).toEqual(
      expect.arrayContaining(['no-empty-servers', 'no-identical-paths']),
    )
    expect([...(await rules('spectral'))]).toEqual(
      expect.arrayContaining(['oas3-api-servers', 'path-params', 'operation-tag-defined']),
    )
  })
})
