import { sql, type Transaction } from 'kysely'
import { describe, expect, it } from 'vitest'
import { useTestContext } from '../../../../test/harness.js'
import { newId, shortId } from '../../../db/ids.js'
import { applyTenantMigrations } from '../../../db/migrator.js'

const ctx = useTestContext()
const tenantMigrations = () => ctx.database.migrations.tenant
const MIGRATION = '20270102090000-proof-files'
/** Files stored before this migration had no purpose column at all. */
const BEFORE_PURPOSE = '20270101090000-file-purpose'

describe(`migration ${MIGRATION}`, () => {
  it('marks the images deliveries already name as proof, and nothing else, without audit entries', async () => {
    // A schema no organisation owns: migrate() never sees it; dropped at the end.
    const schema = `org_${shortId(8)}`
    const at = tenantMigrations().findIndex((m) => m.name === BEFORE_PURPOSE)
    expect(at).toBeGreaterThan(0)
    expect(tenantMigrations().findIndex((m) => m.name === MIGRATION)).toBeGreaterThan(at)
    const db = ctx.database.db
    const apply = (migrations: ReturnType<typeof tenantMigrations>) =>
      db
        .transaction()
        .execute((trx) =>
          applyTenantMigrations(
            trx as unknown as Transaction<unknown>,
            schema,
            migrations,
            ctx.database.migrations.afterTenant,
          ),
        )
    const t = (name: string) => sql.table(`${schema}.${name}`)
    try {
      await apply(tenantMigrations().slice(0, at))
      const [business, other] = [newId(), newId()]
      for (const id of [business, other])
        await sql`INSERT INTO ${t('businesses')} (id, registered_name, display_name) VALUES (${id}, 'B', 'B')`.execute(
          db,
        )
      const files: Record<string, { id: string; type: string; business: string }> = {}
      const file = async (name: string, type: string, owner = business) => {
        const id = newId()
        files[name] = { id, type, business: owner }
        await sql`INSERT INTO ${t('files')} (id, business_id, storage_key, file_name, content_type, size_bytes, sha256)
          VALUES (${id}, ${owner}, ${`${owner}/${id}`}, ${name}, ${type}, 10, 'x')`.execute(db)
        return id
      }
      const signature = await file('signature.png', 'image/png')
      const photo = await file('door.jpg', 'image/jpeg')
      const failPhoto = await file('closed.webp', 'image/webp')
      const shipmentProof = await file('pod.png', 'image/png')
      const scan = await file('pod.pdf', 'application/pdf')
      const gif = await file('anim.gif', 'image/gif')
      await file('logo.png', 'image/png')
      const shipment = async (code: string, proof: object | null = null) => {
        const id = newId()
        await sql`INSERT INTO ${t('shipments')} (id, business_id, code, status, proof)
          VALUES (${id}, ${business}, ${code}, ${proof ? 'Delivered' : 'InTransit'},
            ${proof ? JSON.stringify(proof) : null}::jsonb)`.execute(db)
        return id
      }
      const delivered = await shipment('SHP-1', { recipientName: 'A', note: null, fileId: signature })
      const failed = await shipment('SHP-2')
      await shipment('SHP-3', { recipientName: 'B', note: null, fileId: shipmentProof })
      await shipment('SHP-4', { recipientName: 'C', note: null, fileId: scan })
      await shipment('SHP-5', { recipientName: 'D', note: null, fileId: null })
      const operation = async (
        shipmentId: string,
        kind: string,
        signatureId: string | null,
        photos: string[],
      ) =>
        sql`INSERT INTO ${t('stop_operations')} (id, business_id, shipment_id, kind, occurred_at, signature_file_id,
            photo_file_ids, recipient_name, reason)
          VALUES (${newId()}, ${business}, ${shipmentId}, ${kind}, now(), ${signatureId}, ${photos}::uuid[],
            ${kind === 'Delivered' ? 'A' : null}, ${kind === 'Failed' ? 'Closed' : null})`.execute(db)
      await operation(delivered, 'Delivered', signature, [photo, gif])
      await operation(failed, 'Failed', null, [failPhoto])
      // Another business's shipment naming this business's file does not make it proof.
      const theirs = newId()
      await sql`INSERT INTO ${t('shipments')} (id, business_id, code, status, proof)
        VALUES (${theirs}, ${other}, 'SHP-1', 'Delivered', ${JSON.stringify({ fileId: files['logo.png']!.id })}::jsonb)`.execute(
        db,
      )
      const entries = async () =>
        (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${t('audit_log')}
          WHERE entity_id IN (SELECT id::text FROM ${t('files')})`.execute(db)
        ).rows[0]?.n
      const entriesBefore = await entries()

      await apply(tenantMigrations().slice(at))

      const { rows } = await sql<{ file_name: string; purpose: string }>`
        SELECT file_name, purpose FROM ${t('files')} ORDER BY file_name`.execute(db)
      expect(Object.fromEntries(rows.map((r) => [r.file_name, r.purpose]))).toEqual({
        'anim.gif': 'Attachment',
        'closed.webp': 'Proof',
        'door.jpg': 'Proof',
        'logo.png': 'Attachment',
        'pod.pdf': 'Attachment',
        'pod.png': 'Proof',
        'signature.png': 'Proof',
      })
      expect(await entries()).toBe(entriesBefore)
      // The audit triggers are back on: a later change to a file is recorded.
      await sql`UPDATE ${t('files')} SET file_name = 'renamed.png' WHERE id = ${photo}`.execute(db)
      expect(await entries()).toBe((entriesBefore ?? 0) + 1)
    } finally {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db)
      await sql`DELETE FROM global.tenant_migrations WHERE schema_name = ${schema}`.execute(db)
    }
  })
})
