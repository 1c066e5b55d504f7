import { describe, expect, it } from 'vitest'
import { createApiKey, schemaOf } from '../../../../test/fixtures.js'
import { coreAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { filesUnder, multipart, PNG, temporaryDir } from './files.fixtures.js'

const storage = temporaryDir('files-parts')
const ctx = useTestContext({ FILES_DIR: storage.dir }, storage.remove)

describe('POST /api/files/single with more than one file part', () => {
  it('answers 400 naming file and keeps nothing, with both credential kinds', async () => {
    const owner = await ownerSession(ctx)
    const apiKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId)
    const body = multipart([
      { name: 'file', fileName: 'a.png', contentType: 'image/png', content: PNG },
      { name: 'file', fileName: 'b.txt', contentType: 'text/plain', content: 'second' },
    ])
    for (const core of [owner.core, coreAs(ctx, { apiKey })]) {
      const response = await core({ method: 'POST', url: '/api/files/single', ...body })
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json()).toMatchObject({ code: 'validation_failed', reasons: [{ field: 'file' }] })
    }
    expect(filesUnder(storage.dir)).toEqual([])
    const rows = await ctx.database.db
      .withSchema(await schemaOf(ctx, owner.org.businessId))
      .selectFrom('files')
      .select('id')
      .execute()
    expect(rows).toEqual([])
  })

  it('still accepts one file part beside a plain field', async () => {
    const owner = await ownerSession(ctx)
    const body = multipart([
      { name: 'file', fileName: 'a.png', contentType: 'image/png', content: PNG },
      { name: 'note', content: 'hello' },
    ])
    const response = await owner.core({ method: 'POST', url: '/api/files/single', ...body })
    expect(response.statusCode, response.body).toBe(200)
  })
})
