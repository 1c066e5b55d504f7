import { afterAll, afterEach, beforeAll } from 'vitest'
import { useTestPasswordHashing } from '../src/security/passwords.js'
import { takeRegistrationCount } from './registration-count.js'
import { checkEveryResponse, formatViolations, takeViolations } from './response-check.js'

// Hundreds of users are registered and signed in: hashed at the cheapest argon2id cost, not
// production's (src/security/passwords.test.ts checks those).
useTestPasswordHashing()
// Runs in every test file before it is imported: every app it builds has its responses checked.
checkEveryResponse()

function failOnViolations(when: string) {
  const found = takeViolations()
  if (found.length > 0)
    throw new Error(
      `${found.length} response(s) ${when} did not match their declared schema:\n${formatViolations(found)}`,
    )
}

afterEach(() => failOnViolations('made by this test'))
afterAll(() => failOnViolations('made outside tests (beforeAll/afterAll)'))

// Registered first, so it runs before the file's own hooks and its afterAll after theirs.
beforeAll(() => {
  takeRegistrationCount()
})
afterAll((file) => {
  file.meta.registrations = takeRegistrationCount()
})
