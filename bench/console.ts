/**
 * The web console's weight and first load (`npm run bench -- --console-only`, or `npx tsx
 * bench/console.ts`; a full run ends with it unless BENCH_CONSOLE=0): the JavaScript each first
 * screen needs (gzip, from the build's manifest, and what Chromium actually received, brotli), and
 * the time from navigation until the screen is usable, on the built server with a new demo
 * organisation, in Debian's Chromium on this machine (localhost: no network latency or throttling).
 * Goals: the first meaningful screen in under 1.5 s, under 300 KB of gzipped JavaScript for it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { launchChromium } from '../web/e2e/browser.js'
import { ROOT, startDemoServer } from '../web/e2e/server.js'

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 5)
const DIST = path.join(ROOT, 'web', 'dist')

interface ManifestEntry {
  file: string
  imports?: string[]
  css?: string[]
  isEntry?: boolean
  src?: string
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/** The JavaScript files a manifest entry loads before it runs (itself and its static imports). */
function closure(manifest: Record<string, ManifestEntry>, keys: string[]): string[] {
  const files = new Set<string>()
  const visit = (key: string) => {
    const entry = manifest[key]
    if (!entry || files.has(entry.file)) return
    files.add(entry.file)
    for (const next of entry.imports ?? []) visit(next)
  }
  for (const key of keys) visit(key)
  return [...files].filter((file) => file.endsWith('.js'))
}

const gzipped = (files: string[]) =>
  files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length, 0)

export function bundleFigures() {
  const manifestFile = path.join(DIST, '.vite', 'manifest.json')
  if (!existsSync(manifestFile)) throw new Error('web/dist is not built: npm run build:console')
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestEntry>
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry) ?? 'index.html'
  const dashboard = Object.keys(manifest).find((key) => key.endsWith('areas/dashboard/Dashboard.tsx'))
  const map = Object.keys(manifest).find((key) => /LeafletMap/.test(key) && key.endsWith('.js'))
  const signIn = closure(manifest, [entry])
  const firstScreen = closure(manifest, [entry, ...(dashboard ? [dashboard] : [])])
  const all = [...new Set(Object.values(manifest).map((e) => e.file))].filter((file) => file.endsWith('.js'))
  return {
    signIn: gzipped(signIn),
    firstScreen: gzipped(firstScreen),
    firstScreenFiles: firstScreen.length,
    all: gzipped(all),
    allFiles: all.length,
    map: map ? gzipped(closure(manifest, [map]).filter((f) => !firstScreen.includes(f))) : 0,
  }
}

/** Bytes of JavaScript Chromium received (as sent: compressed) while `load` runs. */
async function scriptBytes(cdp: CDPSession, load: () => Promise<void>): Promise<number> {
  const scripts = new Set<string>()
  let bytes = 0
  const onResponse = (event: { requestId: string; type?: string }) => {
    if (event.type === 'Script') scripts.add(event.requestId)
  }
  const onFinished = (event: { requestId: string; encodedDataLength: number }) => {
    if (scripts.has(event.requestId)) bytes += event.encodedDataLength
  }
  cdp.on('Network.responseReceived', onResponse)
  cdp.on('Network.loadingFinished', onFinished)
  await load()
  cdp.off('Network.responseReceived', onResponse)
  cdp.off('Network.loadingFinished', onFinished)
  return bytes
}

/** Milliseconds from starting the navigation to `ready` resolving. */
async function timed(page: Page, url: string, ready: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await page.goto(url, { waitUntil: 'commit' })
  await ready()
  return performance.now() - started
}

export async function consoleFigures() {
  const bundle = bundleFigures()
  const loadBefore = os.loadavg()[0] ?? 0
  const server = await startDemoServer()
  let browser: Browser | undefined
  try {
    browser = await launchChromium()
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    const coldly = async () => {
      await cdp.send('Network.clearBrowserCache')
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    }
    const signInForm = () => page.getByRole('heading', { name: 'Sign in to Cartage' }).waitFor()
    const dashboard = () => page.locator('.figure').filter({ hasText: 'Shipments' }).first().waitFor()

    const signInTimes: number[] = []
    let signInWire = 0
    for (let run = 0; run < RUNS; run++) {
      await coldly()
      signInWire = await scriptBytes(cdp, async () => {
        signInTimes.push(await timed(page, server.core, signInForm))
      })
    }

    // Signed in once: from then on each load renews the session with the refresh cookie.
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false })
    await page.getByLabel('Email').fill(server.email)
    await page.getByLabel('Password').fill(server.password)
    const signInToDashboard = performance.now()
    await page.getByRole('button', { name: 'Sign in' }).click()
    await dashboard()
    const afterSignIn = performance.now() - signInToDashboard

    const coldTimes: number[] = []
    let dashboardWire = 0
    for (let run = 0; run < RUNS; run++) {
      await coldly()
      dashboardWire = await scriptBytes(cdp, async () => {
        coldTimes.push(await timed(page, server.core, dashboard))
      })
    }
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false })
    await page.goto(server.core)
    await dashboard()
    const warmTimes: number[] = []
    for (let run = 0; run < RUNS; run++) warmTimes.push(await timed(page, server.core, dashboard))
    return {
      bundle,
      signIn: { ms: median(signInTimes), wire: signInWire },
      afterSignIn,
      dashboardCold: { ms: median(coldTimes), all: coldTimes, wire: dashboardWire },
      dashboardWarm: { ms: median(warmTimes), all: warmTimes },
      loadAverage: { before: loadBefore, after: os.loadavg()[0] ?? 0 },
    }
  } finally {
    await browser?.close()
    await server.stop()
  }
}

export function consoleMarkdown(figures: Awaited<ReturnType<typeof consoleFigures>>): string {
  const { bundle } = figures
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met')
  const ms = (value: number) => `${value.toFixed(0)} ms`
  return (
    '## Web console (first load on the demo organisation)\n\n' +
    `\`npm run bench -- --console-only\` (bench/console.ts): the built server (\`cartage serve\`) on a new demo ` +
    `organisation (\`cartage seed --demo\`), Debian's Chromium on this machine (${os.cpus().length} CPUs, ` +
    'localhost: no network latency), navigation to the screen being usable; ' +
    `median of ${RUNS} loads each, cache cleared before each cold load. Measured ${new Date().toISOString()}, ` +
    `load average ${figures.loadAverage.before.toFixed(1)} before and ${figures.loadAverage.after.toFixed(1)} after ` +
    '(the machine is shared).\n\n' +
    '| screen | JavaScript (gzip, from the build) | JavaScript received (brotli) | time to usable |\n' +
    '|---|---|---|---|\n' +
    `| sign-in form, cold cache | ${kb(bundle.signIn)} | ${kb(figures.signIn.wire)} | ${ms(figures.signIn.ms)} |\n` +
    `| dashboard with a session (refresh cookie), cold cache | ${kb(bundle.firstScreen)} (${bundle.firstScreenFiles} files) | ` +
    `${kb(figures.dashboardCold.wire)} | ${ms(figures.dashboardCold.ms)} |\n` +
    `| dashboard with a session, assets cached | — | — | ${ms(figures.dashboardWarm.ms)} |\n` +
    `| dashboard after pressing Sign in (includes the password hash check) | — | — | ${ms(figures.afterSignIn)} |\n\n` +
    `Goals: first meaningful screen (the dashboard's figures) under 1.5 s: ${met(figures.dashboardCold.ms < 1500)}; ` +
    `JavaScript for it under 300 KB gzipped: ${met(bundle.firstScreen < 300 * 1024)}. ` +
    `All the console's JavaScript: ${kb(bundle.all)} gzipped in ${bundle.allFiles} files; the largest area loaded ` +
    `on demand is the delivery map (Leaflet), ${kb(bundle.map)}. Cold dashboard loads: ` +
    `${figures.dashboardCold.all.map((v) => v.toFixed(0)).join(', ')} ms (each renews the session, reads /api/me, ` +
    'the business and the four dashboard calls).\n'
  )
}

/** Replaces (or appends) this section of bench/RESULTS.md, keeping the others. */
export function replaceConsoleSection(section: string): void {
  const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url))
  const text = readFileSync(file, 'utf8')
  const start = text.indexOf('## Web console')
  const end = start < 0 ? -1 : text.indexOf('\n## ', start + 1)
  const next =
    start < 0
      ? `${text.trimEnd()}\n\n${section}`
      : `${text.slice(0, start)}${section}${end < 0 ? '' : text.slice(end)}`
  writeFileSync(file, next)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const section = consoleMarkdown(await consoleFigures())
  process.stdout.write(`${section}\n`)
  if (process.argv.includes('--write')) replaceConsoleSection(section)
}
