// A program written the way an integrator writes one against clients generated with
// @hey-api/openapi-ts from the two served documents (into ./hey-api by the test). It passes no
// base URL (the documents' `servers` give it) and no Page or PageSize (they have defaults).
import { client as core } from './hey-api/core/client.gen.js'
import { createCustomer, getAllCustomers } from './hey-api/core/sdk.gen.js'
import { login, registerOrganization } from './hey-api/global/sdk.gen.js'

const [email = '', password = ''] = process.argv.slice(2)

const registered = await registerOrganization({
  body: {
    business: { registeredName: 'Hey Client Ltd', displayName: 'Hey' },
    user: {
      firstName: 'Hal',
      lastName: 'Hey',
      email,
      password,
      confirmPassword: password,
      acceptedTerms: true,
    },
  },
  throwOnError: true,
})
const businessId: string = registered.data.data.id
const signedIn = await login({ body: { email, password }, throwOnError: true })
const accessToken = signedIn.data.data.session?.accessToken ?? ''

// The Core API's security: a bearer token with X-Business-Id (or an API key, not used here).
core.setConfig({
  auth: (scheme) =>
    scheme.name === 'X-Business-Id' ? businessId : scheme.scheme === 'bearer' ? accessToken : undefined,
})
const created = await createCustomer({ body: { name: 'Hey Client Co', type: 'Company' }, throwOnError: true })
const page = await getAllCustomers({ throwOnError: true })

console.log(
  JSON.stringify({
    code: created.data.data.code,
    totalCount: page.data.totalCount,
    page: page.data.page,
    pageSize: page.data.pageSize,
    names: page.data.data.map((customer) => customer.name),
  }),
)
