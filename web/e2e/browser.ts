import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core'
import type { DemoServer } from './server.js'

/** Debian's Chromium, as the other browser tests run it (no browser download: the machine has none). */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  })
}

/** Screenshots of each test's main moments, kept as test artefacts (git-ignored). */
export const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts')

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true })
}

/** A page whose script errors are collected, to be checked at the end of each test. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('response', (response) => {
    if (response.status() >= 500) errors.push(`${response.status()} ${response.url()}`)
  })
  return { page, errors }
}

export async function signIn(
  page: Page,
  server: DemoServer,
  email = server.email,
  password = server.password,
) {
  await page.goto(server.core)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** Waits until `locator` shows `text` (the console answers asynchronously). */
export async function shows(locator: Locator, text: string | RegExp, timeout = 15_000): Promise<void> {
  await locator.filter({ hasText: text }).first().waitFor({ timeout })
}

export const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name, exact: true }).click()

/** The Core and Global APIs from the test itself (what another application or a person elsewhere does). */
export async function api(server: DemoServer) {
  const login = await fetch(`${server.global}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: server.email, password: server.password }),
  })
  if (!login.ok) throw new Error(`API sign-in failed: ${login.status} ${await login.text()}`)
  const token = ((await login.json()) as { data: { session: { accessToken: string } } }).data.session
    .accessToken
  const call = async <T>(
    base: string,
    method: string,
    url: string,
    body?: unknown,
    businessId = server.businessId,
  ) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'x-business-id': businessId,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`)
    return (JSON.parse(text) as { data: T }).data
  }
  return {
    token,
    core: <T>(method: string, url: string, body?: unknown, businessId?: string) =>
      call<T>(server.core, method, url, body, businessId),
    global: <T>(method: string, url: string, body?: unknown) => call<T>(server.global, method, url, body),
  }
}

/**
 * The link of the latest email to `email` that leads to the console page `page` (e.g.
 * `accept-invitation`, `reset-password`); without SMTP, mail is written under the data directory.
 */
export function mailedLink(dataDir: string, email: string, page: string): string {
  const mail = path.join(dataDir, 'mail')
  const marker = `/#/${page}?`
  const found = readdirSync(mail)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .reverse()
    .map((name) => readFileSync(path.join(mail, name), 'utf8'))
    .find((text) => text.includes(`To: ${email}`) && text.includes(marker))
  const link = found?.split(/\s+/).find((word) => /^https?:\/\//.test(word) && word.includes(marker))
  if (!link) throw new Error(`no ${page} link mailed to ${email}`)
  return link
}
