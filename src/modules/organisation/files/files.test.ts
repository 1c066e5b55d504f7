import { describe, expect, it } from 'vitest'
import {
  addMember,
  addRole,
  businessSession,
  createApiKey,
  organizationIdOf,
  schemaOf,
  sharedOrganisation,
} from '../../../../test/fixtures.js'
import { coreAs, ownerSession, type TestContext, useTestContext } from '../../../../test/harness.js'
import {
  DOCX,
  ELF,
  filesUnder,
  HTML,
  multipart,
  PDF,
  PLAIN_ZIP,
  PNG,
  sha256,
  temporaryDir,
  upload,
} from './files.fixtures.js'

const storage = temporaryDir('files-http')
const ctx = useTestContext({ FILES_DIR: storage.dir }, storage.remove)

type Session = Awaited<ReturnType<typeof ownerSession>>
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

async function uploaded(owner: Session, content: Buffer | string, fileName: string, declared?: string) {
  const response = await upload(owner.core, content, fileName, declared)
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as {
    id: string
    fileName: string
    contentType: string
    sizeBytes: number
    sha256: string
  }
}

async function storedRow(ctx: TestContext, businessId: string, fileId: string) {
  return ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .selectFrom('files')
    .selectAll()
    .where('id', '=', fileId)
    .executeTakeFirst()
}

describe('POST /api/files/single and GET /api/files/{fileId}', () => {
  it('stores an image and serves back the identical bytes with safe download headers', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const response = await upload(owner.core, PNG, 'Lieferschein Müller.png', 'image/png')
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(body).toEqual({
      statusCode: 'OK',
      messages: [],
      data: {
        id: expect.stringMatching(UUID),
        fileName: 'Lieferschein Müller.png',
        contentType: 'image/png',
        sizeBytes: PNG.length,
        sha256: sha256(PNG),
        dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    })

    const download = await owner.core({ url: `/api/files/${body.data.id}` })
    expect(download.statusCode).toBe(200)
    expect(download.rawPayload.equals(PNG)).toBe(true)
    expect(download.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(PNG.length),
      'content-disposition': `attachment; filename="Lieferschein M_ller.png"; filename*=UTF-8''Lieferschein%20M%C3%BCller.png`,
      'x-content-type-options': 'nosniff',
    })
    const head = await owner.core({ method: 'HEAD', url: `/api/files/${body.data.id}` })
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-length']).toBe(String(PNG.length))
    expect(head.rawPayload).toHaveLength(0)
    // Keyed by business and a server id: nothing from the client's name reaches the disk.
    const row = await storedRow(ctx, owner.org.businessId, body.data.id)
    expect(row?.storage_key).toMatch(new RegExp(`^${owner.org.businessId}/[0-9a-f-]{36}$`))
    expect(row?.uploaded_by_user_id).toBe(owner.org.userId)
    expect(filesUnder(storage.dir)).toContain(row?.storage_key)
  })

  it('streams a file larger than the detection sample unchanged (CSV, PDF, docx)', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const csv = `sku,name,qty\n${Array.from({ length: 12_000 }, (_, i) => `SKU-${i},Rohr ✓ ${i},${i % 97}`).join('\n')}\n`
    const bytes = Buffer.from(csv)
    expect(bytes.length).toBeGreaterThan(200_000)
    const file = await uploaded(owner, bytes, 'stock.csv', 'application/vnd.ms-excel')
    expect(file).toMatchObject({ contentType: 'text/csv', sizeBytes: bytes.length, sha256: sha256(bytes) })
    const download = await owner.core({ url: `/api/files/${file.id}` })
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(download.rawPayload.equals(bytes)).toBe(true)

    expect((await uploaded(owner, PDF, 'invoice.pdf')).contentType).toBe('application/pdf')
    expect((await uploaded(owner, DOCX, 'contract.docx', 'application/octet-stream')).contentType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    )
    expect((await uploaded(owner, 'plain notes\n', 'notes')).contentType).toBe('text/plain')
  })

  it('refuses what is not on the allow-list with 415 file_type_not_allowed, whatever the declared type', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const before = filesUnder(storage.dir)
    for (const [content, name] of [
      [ELF, 'photo.png'],
      [HTML, 'photo.png'],
      ['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'logo.png'],
      [PLAIN_ZIP, 'report.docx'],
    ] as const) {
      const response = await upload(owner.core, content, name, 'image/png')
      expect(response.statusCode, name).toBe(415)
      expect(response.json().code).toBe('file_type_not_allowed')
    }
    // Text that turns binary after the sampled start is refused too, and nothing is kept.
    const late = Buffer.concat([Buffer.alloc(100_000, 'a'), Buffer.from([0]), Buffer.alloc(10, 'b')])
    const response = await upload(owner.core, late, 'data.txt', 'text/plain')
    expect(response.statusCode).toBe(415)
    expect(response.json().code).toBe('file_type_not_allowed')
    expect(filesUnder(storage.dir)).toEqual(before)
  })

  it('stores a spoofed path name as its harmless last segment', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const file = await uploaded(owner, 'x', '../../../etc/cron.d/ev\u0007il\u202E\t.txt')
    expect(file.fileName).toBe('evil.txt')
    const windows = await uploaded(owner, 'x', '..\\..\\boot.ini')
    expect(windows.fileName).toBe('boot.ini')
    const long = await uploaded(owner, 'x', `${'n'.repeat(400)}.txt`)
    expect(long.fileName).toHaveLength(255)
    expect(long.fileName.endsWith('.txt')).toBe(true)
    const nameless = await uploaded(owner, PNG, '..')
    expect(nameless.fileName).toBe('file.png')
    expect(filesUnder(storage.dir).every((p) => /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/.test(p))).toBe(true)
  })

  it('answers 400 naming file for a missing, misnamed or empty part, and 415 for a body that is not multipart', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const noFile = await owner.core({
      method: 'POST',
      url: '/api/files/single',
      ...multipart([{ name: 'title', content: 'just a field' }]),
    })
    expect(noFile.statusCode).toBe(400)
    expect(noFile.json().reasons).toEqual([{ field: 'file', message: expect.stringContaining('required') }])
    const misnamed = await owner.core({
      method: 'POST',
      url: '/api/files/single',
      ...multipart([{ name: 'document', fileName: 'a.txt', content: 'hello' }]),
    })
    expect(misnamed.statusCode).toBe(400)
    expect(misnamed.json().reasons[0].field).toBe('file')
    const empty = await upload(owner.core, Buffer.alloc(0), 'empty.txt')
    expect(empty.statusCode).toBe(400)
    expect(empty.json().reasons).toEqual([{ field: 'file', message: 'must not be empty' }])
    const json = await owner.core({ method: 'POST', url: '/api/files/single', payload: { file: 'aGVsbG8=' } })
    expect(json.statusCode).toBe(415)
    expect(json.json().code).toBe('unsupported_media_type')
    const broken = await owner.core({
      method: 'POST',
      url: '/api/files/single',
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
      payload: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated',
    })
    expect(broken.statusCode).toBe(400)
    expect(broken.json().code).toBe('malformed_multipart')
  })

  it('keeps multipart out of every other route: they still take JSON only', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const response = await owner.core({
      method: 'POST',
      url: '/api/team/invitations',
      ...multipart([{ name: 'email', content: 'someone@example.com' }]),
    })
    expect(response.statusCode).toBe(415)
    expect(response.json().code).toBe('unsupported_media_type')
  })

  it('scopes files to their business: another organisation or business gets 404, a bad id 400', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const file = await uploaded(owner, PNG, 'a.png')
    const stranger = await sharedOrganisation(ctx, 'another')
    const foreign = await stranger.core({ url: `/api/files/${file.id}` })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().code).toBe('file_not_found')

    const branch = await owner.core({
      method: 'POST',
      url: '/api/business',
      payload: { registeredName: 'Branch' },
    })
    expect(branch.statusCode, branch.body).toBe(200)
    const inBranch = coreAs(ctx, { ...owner.credential, businessId: branch.json().data.id })
    expect((await inBranch({ url: `/api/files/${file.id}` })).statusCode).toBe(404)

    expect((await owner.core({ url: '/api/files/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(
      404,
    )
    const bad = await owner.core({ url: '/api/files/not-a-uuid' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().reasons[0].field).toBe('fileId')
  })

  it('lets a Member download (View) but not upload (Modify: 403); no credential is 401', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const file = await uploaded(owner, PNG, 'a.png')
    const member = await addMember(ctx, owner.org.businessId, { role: 'Member' })
    const denied = await upload(member.core, PNG, 'b.png', 'image/png')
    expect(denied.statusCode).toBe(403)
    expect(denied.json().code).toBe('permission_denied')
    const download = await member.core({ url: `/api/files/${file.id}` })
    expect(download.statusCode).toBe(200)
    expect(download.rawPayload.equals(PNG)).toBe(true)
    const anonymous = await ctx.core.inject({ method: 'POST', url: '/api/files/single', ...multipart([]) })
    expect(anonymous.statusCode).toBe(401)
    expect((await ctx.core.inject({ url: `/api/files/${file.id}` })).statusCode).toBe(401)
  })

  it('serves a proof image to Shipments View alone, an attachment only to Customers View; 404 across organisations', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const organizationId = await organizationIdOf(ctx, owner.org.businessId)
    const as = async (permissions: Record<string, number>) =>
      (
        await addMember(ctx, owner.org.businessId, {
          role: 'Custom',
          customRoleId: await addRole(ctx, organizationId, permissions),
        })
      ).core
    const proofUpload = await owner.core({
      method: 'POST',
      url: '/api/files/proof',
      ...multipart([{ name: 'file', fileName: 'sig.png', contentType: 'image/png', content: PNG }]),
    })
    expect(proofUpload.statusCode, proofUpload.body).toBe(200)
    const proof = proofUpload.json().data.id as string
    const attachment = (await uploaded(owner, PNG, 'logo.png')).id
    const read = async (core: typeof owner.core, id: string) => {
      const response = await core({ url: `/api/files/${id}` })
      return response.statusCode === 200
        ? response.rawPayload.equals(PNG)
          ? 200
          : 'wrong bytes'
        : `${response.statusCode} ${response.json().code}`
    }
    const dispatcher = await as({ Shipments: 1 })
    const key = coreAs(ctx, {
      apiKey: await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId, {
        scopes: JSON.stringify({ Shipments: 1 }),
      }),
    })
    const clerk = await as({ Customers: 1 })
    const neither = await as({ Orders: 7, Products: 7, Customers: 6, Shipments: 6 })
    expect({
      dispatcher: [await read(dispatcher, proof), await read(dispatcher, attachment)],
      key: [await read(key, proof), await read(key, attachment)],
      clerk: [await read(clerk, proof), await read(clerk, attachment)],
      neither: [await read(neither, proof), await read(neither, attachment)],
    }).toEqual({
      dispatcher: [200, '403 permission_denied'],
      key: [200, '403 permission_denied'],
      clerk: [200, 200],
      neither: ['403 permission_denied', '403 permission_denied'],
    })
    // Shipments View in another organisation: the id is not theirs, whatever they may read.
    const stranger = await sharedOrganisation(ctx, 'another')
    const strangerDispatcher = (
      await addMember(ctx, stranger.org.businessId, {
        role: 'Custom',
        customRoleId: await addRole(ctx, await organizationIdOf(ctx, stranger.org.businessId), {
          Shipments: 1,
        }),
      })
    ).core
    expect(await read(strangerDispatcher, proof)).toBe('404 file_not_found')
    expect(await read(stranger.core, proof)).toBe('404 file_not_found')
    expect(await read(dispatcher, '00000000-0000-4000-8000-000000000000')).toBe('404 file_not_found')
  })

  it('documents both operations in the OpenAPI document', async () => {
    const spec = (await ctx.core.inject({ url: '/openapi.json' })).json()
    const post = spec.paths['/api/files/single'].post
    expect(post.operationId).toBe('UploadFile')
    expect(Object.keys(post.requestBody.content)).toEqual(['multipart/form-data'])
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '413', '415']))
    expect(spec.paths['/api/files/{fileId}'].get.operationId).toBe('DownloadFile')
  })
})

describe('size limit (FILE_MAX_BYTES)', () => {
  const smallStorage = temporaryDir('files-limit')
  const small = useTestContext({ FILE_MAX_BYTES: '1024', FILES_DIR: smallStorage.dir }, smallStorage.remove)

  it('accepts exactly the limit and answers 413 one byte beyond it, keeping nothing', async () => {
    const owner = await ownerSession(small)
    const atLimit = await upload(owner.core, Buffer.alloc(1024, 'a'), 'limit.txt')
    expect(atLimit.statusCode, atLimit.body).toBe(200)
    const stored = filesUnder(smallStorage.dir)
    expect(stored).toHaveLength(1)

    const over = await upload(owner.core, Buffer.alloc(1025, 'a'), 'over.txt')
    expect(over.statusCode).toBe(413)
    expect(over.json()).toMatchObject({ code: 'file_too_large', message: expect.stringContaining('1024') })
    // A body whose declared length alone is far beyond the limit is refused before it is read.
    const huge = await upload(owner.core, Buffer.alloc(200_000, 'a'), 'huge.txt')
    expect(huge.statusCode).toBe(413)
    expect(huge.json().code).toBe('file_too_large')
    const image = await upload(owner.core, Buffer.concat([PNG, Buffer.alloc(2000)]), 'big.png', 'image/png')
    expect(image.statusCode).toBe(413)
    expect(filesUnder(smallStorage.dir)).toEqual(stored)
  })
})
