import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { headerSetter, securityHeaders } from './security-headers.js'

describe('headerSetter', () => {
  it('starts each reply as one clone of the constant headers on this Fastify release', async () => {
    const app = Fastify()
    const setHeaders = headerSetter(securityHeaders())
    app.addHook('onRequest', (request, reply, done) => {
      setHeaders(reply, request.id)
      done()
    })
    // A route's own header replaces a constant one; the constants are not shared between replies.
    app.get('/own', (_request, reply) => reply.header('x-frame-options', 'SAMEORIGIN').send({ ok: true }))
    app.get('/plain', () => ({ ok: true }))
    const own = await app.inject({ url: '/own' })
    const plain = await app.inject({ url: '/plain' })
    expect(setHeaders.cloning()).toBe(true)
    expect(own.headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(plain.headers['x-frame-options']).toBe(securityHeaders()['x-frame-options'])
    expect(plain.headers['content-security-policy']).toContain("default-src 'none'")
    expect(own.headers['x-request-id']).toBe('req-1')
    expect(plain.headers['x-request-id']).toBe('req-2')
    expect(plain.headers['content-type']).toMatch(/^application\/json/)
    await app.close()
  })

  it('keeps a header set before it and falls back to setting each one', async () => {
    const app = Fastify()
    const setHeaders = headerSetter(securityHeaders())
    app.addHook('onRequest', (request, reply, done) => {
      void reply.header('x-early', 'kept')
      setHeaders(reply, request.id)
      done()
    })
    app.get('/', () => ({ ok: true }))
    const answer = await app.inject({ url: '/' })
    expect(answer.headers['x-early']).toBe('kept')
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    await app.close()
  })
})
