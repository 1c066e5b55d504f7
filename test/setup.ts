import { afterAll, afterEach } from 'vitest'
import { checkEveryResponse, formatViolations, takeViolations } from './response-check.js'

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
