import { randomBytes } from 'node:crypto'
import type { Seed } from './scenarios.js'

const PASSWORD = 'correct-horse-battery'

/** Registers one organisation through the real Global API (same body as test/harness.ts). */
export async function seed(globalBase: string): Promise<Seed> {
  const tag = randomBytes(4).toString('hex')
  const email = `bench-${tag}@example.com`
  const body = {
    business: {
      registeredName: `Bench Org ${tag}`,
      displayName: 'Bench Org',
      email: 'ops@example.com',
      phoneNumber: '+27 21 555 0100',
      website: 'https://example.com',
      registrationNumber: '2026/000001/07',
      requiresDispatchBuilder: true,
      address: { fullAddress: '1 Main Road, Cape Town', city: 'Cape Town', country: 'ZA' },
    },
    user: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      phoneNumber: '+27 82 000 0000',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      acceptedTerms: true,
    },
  }
  const response = await fetch(`${globalBase}/api/organizations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`seeding failed: ${response.status} ${text}`)
  const data = (JSON.parse(text) as { data: { id: string; currentUser: { id: string } } }).data
  return { email, businessId: data.id, userId: data.currentUser.id }
}
