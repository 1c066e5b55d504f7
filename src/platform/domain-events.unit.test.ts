import { Type } from '@sinclair/typebox'
import { describe, expect, it } from 'vitest'
import type { Executor } from '../db/tables.js'
import {
  type DeclaredEvent,
  type DomainEvent,
  DomainEvents,
  InvalidEventPayloadError,
} from './domain-events.js'

// A declared event as a module would declare it; the type name is one of the real ones so the
// test needs no declaration merging of its own.
const declared = {
  type: 'OrderCreated',
  description: 'A sales order was created.',
  payload: Type.Object({
    orderId: Type.String({ format: 'uuid' }),
    code: Type.String(),
    customerId: Type.String({ format: 'uuid' }),
    status: Type.String(),
    currency: Type.String(),
    total: Type.Number(),
  }),
} as unknown as DeclaredEvent

const db = {} as Executor
const payload = {
  orderId: '0b7e6a4e-8f7c-4f59-9d59-0d3c5b8a1a11',
  code: 'SO-1',
  customerId: '5c1f0f3e-2d1b-4a9e-8e53-6a9b1f2c3d44',
  status: 'Draft',
  currency: 'ZAR',
  total: 12.5,
}
const event = (p: unknown) =>
  ({ type: 'OrderCreated', businessId: 'b', userId: null, payload: p }) as DomainEvent

describe('DomainEvents.publish', () => {
  it('hands a payload its declaration accepts to every handler, in registration order', async () => {
    const seen: string[] = []
    const events = new DomainEvents({
      declared: [declared],
      handlers: [
        ['first', async (_db, _s, e) => void seen.push(`first ${e.type}`)],
        ['second', async (_db, _s, e) => void seen.push(`second ${e.type}`)],
      ],
    })
    await events.publish(db, 'org_x', event(payload))
    expect(seen).toEqual(['first OrderCreated', 'second OrderCreated'])
  })

  it('refuses, before any handler runs, a payload its declaration refuses (a missing field, a wrong type, a bad uuid)', async () => {
    const seen: string[] = []
    const events = new DomainEvents({
      declared: [declared],
      handlers: [['notifications', async () => void seen.push('ran')]],
    })
    const { total: _missing, ...withoutTotal } = payload
    for (const bad of [
      withoutTotal,
      { ...payload, total: '12.5' },
      { ...payload, orderId: 'not-a-uuid' },
      null,
    ]) {
      await expect(events.publish(db, 'org_x', event(bad))).rejects.toBeInstanceOf(InvalidEventPayloadError)
    }
    expect(seen).toEqual([])
  })

  it('refuses an event no module declares, and a type declared twice', async () => {
    const events = new DomainEvents({ declared: [], handlers: [] })
    await expect(events.publish(db, 'org_x', event(payload))).rejects.toThrow(/no module declares it/)
    expect(() => new DomainEvents({ declared: [declared, declared], handlers: [] })).toThrow(/declared twice/)
  })
})

describe('DomainEvents.publishAll', () => {
  it('hands the events in order to each handler, all at once to one that takes many', async () => {
    const seen: string[] = []
    const one = async (_db: Executor, _s: string, e: DomainEvent) =>
      void seen.push(`one ${(e.payload as { code: string }).code}`)
    const many = Object.assign(async () => void seen.push('many alone'), {
      many: async (_db: Executor, _s: string, all: readonly { event: DomainEvent }[]) =>
        void seen.push(`many ${all.map((p) => (p.event.payload as { code: string }).code).join(',')}`),
    })
    const events = new DomainEvents({
      declared: [declared],
      handlers: [
        ['one', one],
        ['many', many],
      ],
    })
    await events.publishAll(db, 'org_x', [
      event({ ...payload, code: 'SO-1' }),
      event({ ...payload, code: 'SO-2' }),
    ])
    expect(seen).toEqual(['one SO-1', 'one SO-2', 'many SO-1,SO-2'])
    seen.length = 0
    await events.publishAll(db, 'org_x', [])
    expect(seen).toEqual([])
  })

  it('refuses the whole batch, before any handler runs, when one payload is refused', async () => {
    const seen: string[] = []
    const events = new DomainEvents({
      declared: [declared],
      handlers: [['notifications', async () => void seen.push('ran')]],
    })
    await expect(
      events.publishAll(db, 'org_x', [event(payload), event({ ...payload, total: 'x' })]),
    ).rejects.toBeInstanceOf(InvalidEventPayloadError)
    expect(seen).toEqual([])
  })
})
