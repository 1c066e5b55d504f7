import { describe, expect, it } from 'vitest'
import { AppError } from '../errors.js'
import { PasswordWork } from './password-work.js'

/** A check that finishes when the test says so. */
function deferred() {
  let finish = () => {}
  const done = new Promise<void>((resolve) => {
    finish = resolve
  })
  return { done, finish }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('PasswordWork', () => {
  it('lets a flood for one account hold one slot while another account signs in next', async () => {
    const work = new PasswordWork(2)
    const order: string[] = []
    const checks: ReturnType<typeof deferred>[] = []
    const check = (label: string) => () => {
      order.push(label)
      const d = deferred()
      checks.push(d)
      return d.done
    }
    // Eight attempts on the flooded account: one runs, the rest wait behind it.
    const flood = Array.from({ length: 8 }, (_, i) => work.run('Victim@example.com', check(`victim${i}`)))
    await settle()
    expect(order).toEqual(['victim0'])
    // Another person finds the free slot at once.
    const other = work.run('someone@example.com', check('someone'))
    await settle()
    expect(order).toEqual(['victim0', 'someone'])
    // A third account, with both slots busy, is next when one frees, before the flood's second.
    const third = work.run('third@example.com', check('third'))
    await settle()
    checks[0]?.finish()
    await settle()
    await settle()
    expect(order.slice(0, 3)).toEqual(['victim0', 'someone', 'third'])
    for (const d of checks) d.finish()
    checks[1]?.finish()
    // Drain everything.
    for (let i = 0; i < 20; i++) {
      for (const d of checks) d.finish()
      await settle()
    }
    await Promise.all([...flood, other, third])
    expect(order.filter((label) => label.startsWith('victim'))).toHaveLength(8)
  })

  it('refuses an account whose waiting line is full with 429, and the account (any case) still finishes', async () => {
    const work = new PasswordWork(1)
    const gate = deferred()
    const first = work.run('a@example.com', () => gate.done)
    const waiting = Array.from({ length: 8 }, () => work.run('A@example.com', async () => {}))
    await expect(work.run('a@example.com', async () => {})).rejects.toSatisfy(
      (error) => error instanceof AppError && error.status === 429,
    )
    gate.finish()
    await Promise.all([first, ...waiting])
  })
})
