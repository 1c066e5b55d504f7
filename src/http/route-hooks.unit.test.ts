import type { RouteOptions } from 'fastify'
import { describe, expect, it } from 'vitest'
import { addRouteHook, methodsOf } from './route-hooks.js'

const route = (extra: Partial<RouteOptions> = {}) =>
  ({ method: 'GET', url: '/x', handler: () => null, ...extra }) as RouteOptions

describe('addRouteHook', () => {
  it('puts kernel hooks ahead of the route’s own, in the order they are added', () => {
    const own = () => undefined
    const first = () => undefined
    const second = () => undefined
    const options = route({ onRequest: own })
    addRouteHook(options, 'onRequest', first)
    addRouteHook(options, 'onRequest', second)
    expect(options.onRequest).toEqual([first, second, own])
  })

  it('never changes the array it was given (a HEAD route copies the GET route’s options)', () => {
    const own = [() => undefined]
    const options = route({ preValidation: own })
    addRouteHook(options, 'preValidation', () => undefined)
    expect(own).toHaveLength(1)
    expect(options.preValidation).toHaveLength(2)
  })

  it('starts a list where the route had none', () => {
    const options = route()
    const hook = () => undefined
    addRouteHook(options, 'onSend', hook)
    expect(options.onSend).toEqual([hook])
  })
})

describe('methodsOf', () => {
  it('lists one method or several', () => {
    expect(methodsOf({ method: 'GET' })).toEqual(['GET'])
    expect(methodsOf({ method: ['GET', 'POST'] })).toEqual(['GET', 'POST'])
  })
})
