import { describe, expect, it } from 'vitest'
import { splitHash } from './hash-location'
import { sortFrom, sortParam } from './list-state'

describe("a list's state in the address", () => {
  it('splits the route from the query of the fragment', () => {
    expect(splitHash('#/customers?status=Active&page=2')).toEqual({
      path: '/customers',
      query: 'status=Active&page=2',
    })
    expect(splitHash('#/customers/c-1')).toEqual({ path: '/customers/c-1', query: '' })
    expect(splitHash('')).toEqual({ path: '/', query: '' })
    expect(splitHash('#/reset-password?token=crp_x')).toEqual({
      path: '/reset-password',
      query: 'token=crp_x',
    })
  })

  it('writes a sort as the field, minus first when descending, and refuses anything else', () => {
    expect(sortParam({ field: 'name', descending: false })).toBe('name')
    expect(sortParam({ field: 'dateCreated', descending: true })).toBe('-dateCreated')
    expect(sortFrom('-dateCreated')).toEqual({ field: 'dateCreated', descending: true })
    expect(sortFrom('name')).toEqual({ field: 'name', descending: false })
    expect(sortFrom("name'; drop")).toBeNull()
    expect(sortFrom(null)).toBeNull()
  })
})
