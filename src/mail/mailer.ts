import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import nodemailer from 'nodemailer'

export interface MailMessage {
  to: string
  subject: string
  text: string
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
}

/**
 * SMTP when `SMTP_URL` is set. Otherwise each message becomes an `.eml` file under
 * `<dataDir>/mail/`, with a plain `.txt` copy beside it, so a local user can open the links; the log names the file, never the
 * link, because links carry single-use secrets.
 */
export function createMailer(options: {
  smtpUrl: string | undefined
  from: string
  dataDir: string
  logger: FastifyBaseLogger | false
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl)
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message })
      },
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  const directory = path.join(options.dataDir, 'mail')
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message })
      await mkdir(directory, { recursive: true, mode: 0o700 })
      const file = path.join(
        directory,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`,
      )
      await writeFile(file, info.message as Buffer, { mode: 0o600 })
      // The .eml is quoted-printable, whose soft line breaks cut long links in two: a plain copy
      // beside it can be read and its links copied as they are.
      const plain = `From: ${options.from}\nTo: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`
      await writeFile(file.replace(/\.eml$/, '.txt'), plain, { mode: 0o600 })
      if (options.logger)
        options.logger.info(
          { to: message.to, subject: message.subject, file },
          'mail written to file (no SMTP_URL)',
        )
    },
  }
}

/** Keeps messages in memory; the test harness reads links from it. */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = []
  async send(message: MailMessage) {
    this.sent.push(message)
  }
  /** The last message to `to`. */
  lastTo(to: string): MailMessage | undefined {
    return this.sent.filter((m) => m.to.toLowerCase() === to.toLowerCase()).at(-1)
  }
}
