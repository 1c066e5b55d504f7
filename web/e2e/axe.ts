import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeFinding {
  id: string
  impact: string
  help: string
  targets: string[]
}

/**
 * The serious and critical accessibility findings of axe-core (its WCAG 2.x A and AA rules) on the
 * page as it is now (or within `selector`). The engine is evaluated through the browser's debugging protocol, which the page's
 * content security policy does not govern; the page itself stays as served.
 */
export async function seriousAxeFindings(page: Page, selector?: string): Promise<AxeFinding[]> {
  if (!(await page.evaluate('typeof globalThis.axe === "object"'))) await page.evaluate(axeSource)
  return page.evaluate(
    async ({ within }) => {
      const scope = globalThis as unknown as {
        axe?: {
          run: (
            context: unknown,
            options: unknown,
          ) => Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[]
          }>
        }
      }
      const axe = scope.axe
      if (!axe) throw new Error('axe-core did not load')
      const result = await axe.run(within ?? 'html', {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        resultTypes: ['violations'],
      })
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          id: v.id,
          impact: v.impact ?? '',
          help: v.help,
          targets: v.nodes.map((n) => n.target.map(String).join(' ')),
        }))
    },
    { within: selector ?? null },
  )
}
