import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createMailer } from './mailer.js'

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-mail-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('mail written to files (no SMTP_URL)', () => {
  it('writes an .eml and a readable .txt whose long link is unbroken', async () => {
    const link = `http://localhost:8081/api/auth/verify-by-token?token=cev_${'x'.repeat(120)}`
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Cartage <no-reply@cartage.local>',
      dataDir,
      logger: false,
    })
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Verify your email address',
      text: `Open ${link} to verify.`,
    })
    const files = readdirSync(path.join(dataDir, 'mail')).sort()
    expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(1)
    const txt = files.find((f) => f.endsWith('.txt'))
    expect(txt).toBeDefined()
    const plain = readFileSync(path.join(dataDir, 'mail', txt ?? ''), 'utf8')
    expect(plain).toContain(link)
    expect(plain).toContain('To: ada@example.com')
    expect(plain).toContain('Subject: Verify your email address')
    // The .eml itself breaks the link (why the .txt exists); if it ever stops, the .txt can go.
    expect(
      readFileSync(path.join(dataDir, 'mail', txt?.replace(/\.txt$/, '.eml') ?? ''), 'utf8'),
    ).not.toContain(link)
  })
})
