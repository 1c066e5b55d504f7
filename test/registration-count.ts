/**
 * Organisations registered by the current test file: registration (a schema with every table) is
 * the dearest step of most tests, so the suite keeps count. `registerOrganization` (harness.ts)
 * counts, test/setup.ts stores the file's count in its task meta, and test/summary-reporter.ts
 * prints the total and the files that register most. Kept apart from harness.ts so that the unit
 * project's setup does not import the app.
 */
const key = Symbol.for('cartage.test.registrations')
type Holder = { [key]?: number }

export function countRegistration(): void {
  const holder = globalThis as Holder
  holder[key] = (holder[key] ?? 0) + 1
}

/** The count since the last call (files run one after another in a worker: one file's count). */
export function takeRegistrationCount(): number {
  const holder = globalThis as Holder
  const count = holder[key] ?? 0
  holder[key] = 0
  return count
}

declare module 'vitest' {
  interface TaskMeta {
    /** Organisations the file registered through the harness. */
    registrations?: number
  }
}
