import { describe, expect, it } from 'vitest'
import { findUnstorable } from './unstorable-text.js'

describe('findUnstorable', () => {
  it('finds nothing in clean text, flat or nested', () => {
    expect(findUnstorable({ host: 'example.org', accept: 'application/json' })).toBeUndefined()
    expect(findUnstorable({ a: { b: ['x', 'y'] }, c: 1, d: null })).toBeUndefined()
    expect(findUnstorable(undefined)).toBeUndefined()
    expect(findUnstorable({})).toBeUndefined()
  })

  it('names the field of a flat object (headers, path, query) as the nested walk does', () => {
    expect(findUnstorable({ a: 'ok', b: 'bad\u0000' })).toBe('b')
    expect(findUnstorable({ a: 'bad\u0000', b: 'bad\u0000' })).toBe('a')
    expect(findUnstorable({ a: 'ok', 'k\u0000': 'v' })).toBe('k\\u0000')
    expect(findUnstorable({ 'x\ud800': 'v', b: 'bad\u0000' })).toBe('x\\ud800')
    expect(findUnstorable({ b: 'lone \udc00' }, 'query')).toBe('query.b')
    // A surrogate pair is text.
    expect(findUnstorable({ emoji: '\ud83d\ude00' })).toBeUndefined()
  })

  it('walks nested values and arrays (a header given twice, a body)', () => {
    expect(findUnstorable({ 'x-a': ['ok', 'bad\u0000'] })).toBe('x-a.1')
    expect(findUnstorable({ lines: [{ note: 'ok' }, { note: '\u0000' }] })).toBe('lines.1.note')
    expect(findUnstorable('\u0000', '')).toBe('')
  })
})
