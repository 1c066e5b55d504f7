import { describe, expect, it } from 'vitest'
import { databaseFault } from './faults.js'

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code })

describe('databaseFault', () => {
  it('tells an unreachable database and a full disk from errors of the request', () => {
    expect(databaseFault(coded('ECONNREFUSED'))).toBe('unavailable')
    expect(databaseFault(coded('57P01', 'terminating connection due to administrator command'))).toBe(
      'unavailable',
    )
    expect(databaseFault(coded('53300', 'sorry, too many clients already'))).toBe('unavailable')
    expect(databaseFault(coded('08006'))).toBe('unavailable')
    expect(databaseFault(new Error('Connection terminated unexpectedly'))).toBe('unavailable')
    expect(databaseFault(new Error('timeout exceeded when trying to connect'))).toBe('unavailable')
    expect(databaseFault(coded('53100', 'could not extend file: No space left on device'))).toBe(
      'storage_full',
    )
    expect(databaseFault(coded('ENOSPC'))).toBe('storage_full')
    // Wrapped (a cause chain).
    expect(databaseFault(new Error('outer', { cause: coded('ECONNRESET') }))).toBe('unavailable')
    // The request's own faults stay what they are.
    expect(databaseFault(coded('23505', 'duplicate key value'))).toBeUndefined()
    expect(databaseFault(coded('22P02', 'invalid input syntax'))).toBeUndefined()
    expect(databaseFault(new Error('anything else'))).toBeUndefined()
    expect(databaseFault('not an error')).toBeUndefined()
  })
})
