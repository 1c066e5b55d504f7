import { describe, expect, it } from 'vitest'
import { addMember } from '../../../../test/fixtures.js'
import { type Core, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { PDF, PNG, temporaryDir, upload } from '../../organisation/files/files.fixtures.js'
import { CUSTOMERS, createCustomer } from '../customers/customers.fixtures.js'

const storage = temporaryDir('attachments')
const ctx = useTestContext({ FILES_DIR: storage.dir }, storage.remove)
// Every test adds its own customers and files and reads back only those: one organisation for the
// file, and one more as the stranger whose customers and files are out of reach.
const owner = useOwnerSession(ctx)
const stranger = useOwnerSession(ctx)

async function uploadedId(core: Core, content: Buffer | string = PNG, name = 'photo.png') {
  const response = await upload(core, content, name)
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data.id as string
}

const attach = (core: Core, customerId: string, payload: Record<string, unknown>) =>
  core({ method: 'POST', url: `${CUSTOMERS}/${customerId}/attachments`, payload })
const detach = (core: Core, customerId: string, attachmentId: string) =>
  core({ method: 'DELETE', url: `${CUSTOMERS}/${customerId}/attachments/${attachmentId}` })

async function traceTypes(core: Core, customerId: string) {
  const response = await core({ url: `${CUSTOMERS}/${customerId}/traces` })
  expect(response.statusCode, response.body).toBe(200)
  return (response.json().data as { type: string; note: string | null }[]).filter((t) =>
    t.type.startsWith('Attachment'),
  )
}

describe('POST /api/v1/Customers/{customerId}/attachments', () => {
  it('attaches an uploaded file (fileAttachmentId or its alias fileId) and returns the customer', async () => {
    const customer = await createCustomer(owner.core)
    const fileId = await uploadedId(owner.core, PNG, 'site-photo.png')
    const response = await attach(owner.core, customer.id, { type: 'File', fileAttachmentId: fileId })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(body.statusCode).toBe('OK')
    expect(body.data.id).toBe(customer.id)
    expect(body.data.attachments).toEqual([
      {
        id: expect.any(String),
        type: 'File',
        fileId,
        fileName: 'site-photo.png',
        contentType: 'image/png',
        sizeBytes: PNG.length,
        title: null,
        url: null,
        dateCreated: expect.stringMatching(/^\d{4}-/),
      },
    ])

    // Type defaults to File; `fileId` is accepted as the alias; enum names in any case or by number.
    const pdfId = await uploadedId(owner.core, PDF, 'contract.pdf')
    const second = await attach(owner.core, customer.id, { fileId: pdfId, title: '  Signed contract ' })
    expect(second.statusCode, second.body).toBe(200)
    expect(second.json().data.attachments[1]).toMatchObject({
      type: 'File',
      fileId: pdfId,
      title: 'Signed contract',
    })
    const third = await attach(owner.core, customer.id, {
      type: 0,
      fileAttachmentId: await uploadedId(owner.core),
    })
    expect(third.statusCode).toBe(200)
    expect(third.json().data.attachments).toHaveLength(3)

    // Attaching the same file again adds no second entry.
    const again = await attach(owner.core, customer.id, { type: 'file', fileAttachmentId: fileId })
    expect(again.statusCode).toBe(200)
    expect(again.json().data.attachments).toHaveLength(3)

    const read = await owner.core({ url: `${CUSTOMERS}/${customer.id}` })
    expect(read.json().data.attachments.map((a: { fileId: string }) => a.fileId)).toEqual([
      fileId,
      pdfId,
      third.json().data.attachments[2].fileId,
    ])
    expect(await traceTypes(owner.core, customer.id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'AttachmentAdded', note: 'site-photo.png' }),
        expect.objectContaining({ type: 'AttachmentAdded', note: 'Signed contract' }),
      ]),
    )
    expect(await traceTypes(owner.core, customer.id)).toHaveLength(3)
  })

  it('attaches a link with a title and an http(s) url', async () => {
    const customer = await createCustomer(owner.core)
    const response = await attach(owner.core, customer.id, {
      type: 'Link',
      title: 'Shared drive folder',
      url: 'https://drive.example.com/folders/abc?x=1',
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data.attachments).toEqual([
      expect.objectContaining({
        type: 'Link',
        fileId: null,
        fileName: null,
        title: 'Shared drive folder',
        url: 'https://drive.example.com/folders/abc?x=1',
      }),
    ])
    expect(await traceTypes(owner.core, customer.id)).toEqual([
      expect.objectContaining({
        type: 'AttachmentAdded',
        note: 'Shared drive folder (https://drive.example.com/folders/abc?x=1)',
      }),
    ])
  })

  it('answers 400 naming each invalid field', async () => {
    const customer = await createCustomer(owner.core)
    const reasonsOf = async (payload: Record<string, unknown>) => {
      const response = await attach(owner.core, customer.id, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().code).toBe('validation_failed')
      return response
        .json()
        .reasons.map((r: { field: string }) => r.field)
        .sort()
    }
    expect(await reasonsOf({ type: 'Link' })).toEqual(['title', 'url'])
    expect(await reasonsOf({ type: 'Link', title: '   ', url: 'javascript:alert(1)' })).toEqual([
      'title',
      'url',
    ])
    expect(await reasonsOf({ type: 'Link', title: 'Site', url: 'ftp://files.example.com/a' })).toEqual([
      'url',
    ])
    expect(
      await reasonsOf({ type: 'Link', title: 'Site', url: `https://example.com/${'a'.repeat(2000)}` }),
    ).toEqual(['url'])
    expect(await reasonsOf({ type: 'Link', title: 't'.repeat(201), url: 'https://example.com' })).toEqual([
      'title',
    ])
    expect(await reasonsOf({ type: 'File' })).toEqual(['fileAttachmentId'])
    expect(await reasonsOf({ type: 'Folder' })).toEqual(['type'])
    expect(await reasonsOf({ fileAttachmentId: 'nope' })).toEqual(['fileAttachmentId'])
    // A file id that is not one of this business's files.
    expect(await reasonsOf({ fileAttachmentId: '00000000-0000-4000-8000-000000000000' })).toEqual([
      'fileAttachmentId',
    ])
    const foreignFile = await uploadedId(stranger.core)
    expect(await reasonsOf({ fileAttachmentId: foreignFile })).toEqual(['fileAttachmentId'])
    const mine = await uploadedId(owner.core)
    expect(await reasonsOf({ fileAttachmentId: mine, fileId: foreignFile })).toEqual(['fileAttachmentId'])
    expect((await owner.core({ url: `${CUSTOMERS}/${customer.id}` })).json().data.attachments).toEqual([])
  })

  it('answers 404 for an unknown, foreign or deleted customer', async () => {
    const fileId = await uploadedId(owner.core)
    const unknown = await attach(owner.core, '00000000-0000-4000-8000-000000000000', {
      fileAttachmentId: fileId,
    })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().code).toBe('customer_not_found')
    const theirs = await createCustomer(stranger.core)
    expect((await attach(owner.core, theirs.id, { fileAttachmentId: fileId })).statusCode).toBe(404)
    const deleted = await createCustomer(owner.core)
    expect((await owner.core({ method: 'DELETE', url: `${CUSTOMERS}/${deleted.id}` })).statusCode).toBe(200)
    expect((await attach(owner.core, deleted.id, { fileAttachmentId: fileId })).statusCode).toBe(404)
  })

  it('needs Customers Modify: a Member gets 403 on upload and attach', async () => {
    const customer = await createCustomer(owner.core)
    const fileId = await uploadedId(owner.core)
    const member = await addMember(ctx, owner.org.businessId)
    const uploadResponse = await upload(member.core, PNG, 'a.png', 'image/png')
    expect(uploadResponse.statusCode).toBe(403)
    const response = await attach(member.core, customer.id, { fileAttachmentId: fileId })
    expect(response.statusCode).toBe(403)
    expect(response.json().code).toBe('permission_denied')
  })
})

describe('DELETE /api/v1/Customers/{customerId}/attachments/{attachmentId}', () => {
  it('removes the entry but keeps the stored file downloadable', async () => {
    const customer = await createCustomer(owner.core)
    const fileId = await uploadedId(owner.core, PDF, 'contract.pdf')
    const added = await attach(owner.core, customer.id, { fileAttachmentId: fileId })
    const link = await attach(owner.core, customer.id, {
      type: 'Link',
      title: 'Site',
      url: 'http://example.com',
    })
    const [fileEntry, linkEntry] = link.json().data.attachments
    expect(added.json().data.attachments[0].id).toBe(fileEntry.id)

    const removed = await detach(owner.core, customer.id, fileEntry.id)
    expect(removed.statusCode, removed.body).toBe(200)
    expect(removed.json().data.attachments).toEqual([
      expect.objectContaining({ id: linkEntry.id, type: 'Link' }),
    ])
    const download = await owner.core({ url: `/api/files/${fileId}` })
    expect(download.statusCode).toBe(200)
    expect(download.rawPayload.equals(PDF)).toBe(true)

    const again = await detach(owner.core, customer.id, fileEntry.id)
    expect(again.statusCode).toBe(404)
    expect(again.json().code).toBe('attachment_not_found')
    expect((await detach(owner.core, customer.id, linkEntry.id)).json().data.attachments).toEqual([])
    expect((await traceTypes(owner.core, customer.id)).filter((t) => t.type === 'AttachmentRemoved')).toEqual(
      [expect.objectContaining({ note: 'Site' }), expect.objectContaining({ note: 'contract.pdf' })],
    )

    // The file can be attached again after its entry was removed.
    expect((await attach(owner.core, customer.id, { fileId })).json().data.attachments).toHaveLength(1)
  })

  it('answers 404 for an attachment of another customer or organisation, 403 without Delete', async () => {
    const first = await createCustomer(owner.core)
    const second = await createCustomer(owner.core, { name: 'Other' })
    const entry = (
      await attach(owner.core, first.id, { type: 'Link', title: 'A', url: 'https://a.example' })
    ).json().data.attachments[0]
    expect((await detach(owner.core, second.id, entry.id)).statusCode).toBe(404)
    const theirs = await createCustomer(stranger.core)
    expect((await detach(stranger.core, theirs.id, entry.id)).statusCode).toBe(404)
    expect((await detach(stranger.core, first.id, entry.id)).statusCode).toBe(404)
    const member = await addMember(ctx, owner.org.businessId)
    expect((await detach(member.core, first.id, entry.id)).statusCode).toBe(403)
    const bad = await owner.core({ method: 'DELETE', url: `${CUSTOMERS}/${first.id}/attachments/xyz` })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().reasons[0].field).toBe('attachmentId')
    expect((await owner.core({ url: `${CUSTOMERS}/${first.id}` })).json().data.attachments).toHaveLength(1)
  })
})
