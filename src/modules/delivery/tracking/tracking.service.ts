import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../../config.js'
import type { Database } from '../../../db/database.js'
import type { Executor } from '../../../db/tables.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { DomainEventHandler } from '../../../platform/domain-events.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { wallClockText } from '../local-time.js'
import { shipmentNotFound } from '../shipments/index.js'
import * as repository from './tracking.repository.js'
import type { TrackingLinkResponse } from './tracking.schemas.js'
import { type TrackingView, trackingNotFoundPage, trackingPage } from './tracking-page.js'

/** A mail that failed is tried again by the next rounds, this many times in all. */
const MAIL_ATTEMPTS = 5
const MAILS_PER_ROUND = 50

/** The public page's address: the Core API as its clients reach it (CORE_PUBLIC_URL), else the app's. */
export const trackingUrl = (config: Config, token: string) =>
  `${config.corePublicUrl ?? config.publicAppUrl}/api/v1/track/${token}`

/** The shipment's tracking link, made on first ask. */
export async function trackingLink(
  { database, config }: AppDeps,
  auth: BusinessAuth,
  shipmentId: string,
): Promise<TrackingLinkResponse> {
  const { schemaName: schema, businessId } = auth
  // One transaction, begun by a statement on the organisation's schema: the link is kept on the
  // organisation's cluster (db/clusters.ts, CLUSTER_LOCAL_TABLES).
  const link = await database.db.transaction().execute(async (trx) => {
    const shipment = await repository.shipmentCode(trx, schema, shipmentId, businessId, true)
    if (!shipment) throw shipmentNotFound()
    return repository.saveLink(trx, schema, businessId, shipmentId)
  })
  return {
    shipmentId,
    url: trackingUrl(config, link.token),
    emailTo: link.email_to,
    emailedAt: link.emailed_at?.toISOString() ?? null,
  }
}

const day = (value: Date | string | null) =>
  value === null ? null : typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10)

/** The page a token opens: 200 with the shipment's status, or 404 when no shipment has it. */
export async function trackingPageFor(
  database: Database,
  token: string,
): Promise<{ status: 200 | 404; html: string }> {
  const link = await linkOnAnyCluster(database, token)
  const row =
    link &&
    (await repository.trackedShipment(database.db, link.schema_name, link.business_id, link.shipment_id))
  if (!row) return { status: 404, html: trackingNotFoundPage() }
  const steps: [string, Date | null][] = [
    ['Order received', row.date_created],
    ['Out for delivery', row.dispatched_at],
    ['Driver arrived', row.arrived_at ? new Date(row.arrived_at) : null],
    ['Delivered', row.delivered_at],
    ['Delivery attempt failed', row.failed_at],
    ['Returned to sender', row.returned_at],
    ['Cancelled', row.cancelled_at],
  ]
  const local = (at: Date) => wallClockText(at, row.timezone)
  const windows = Array.isArray(row.delivery_windows)
    ? (row.delivery_windows as { start: string; end: string }[])
    : []
  const view: TrackingView = {
    status: row.status,
    expectedDay: day(row.plan_date) ?? day(row.scheduled_date),
    timeZone: row.timezone,
    windows: windows.map((w) => `${local(new Date(w.start))} to ${local(new Date(w.end))}`),
    // Only while it is still on its way: once delivered, the timeline says when.
    plannedArrival:
      row.planned_arrival && ['Assigned', 'InTransit'].includes(row.status)
        ? local(row.planned_arrival)
        : null,
    timeline: steps
      .filter((step): step is [string, Date] => step[1] !== null)
      .map(([label, at]) => ({ label, at }))
      .sort((a, b) => a.at.getTime() - b.at.getTime()),
  }
  return { status: 200, html: trackingPage(view) }
}

/**
 * When a plan is dispatched, each of its shipments gets its tracking link, and the customer's
 * contact (primary contact with an address, else the customer's own) is due its mail, sent by
 * the tracking mail worker once the dispatch has committed.
 */
export const linkDispatchedShipments: DomainEventHandler = async (db, schemaName, event) => {
  if (event.type !== 'PlanDispatched') return
  const shipments = await repository.dispatchedWithContacts(
    db,
    schemaName,
    event.businessId,
    event.payload.deliveryPlanId,
  )
  await repository.saveLinks(
    db,
    schemaName,
    event.businessId,
    shipments.map((s) => ({ shipmentId: s.id, mailTo: s.email })),
  )
}

/**
 * Each cluster keeps the links of the organisations it holds: the main one's are found first (by
 * its prepared statement), the others' then one cluster after another.
 */
async function linkOnAnyCluster(database: Database, token: string) {
  const onMain = await repository.linkByToken(database.db, token)
  if (onMain || !database.clusters) return onMain
  for (const name of database.clusters.names.slice(1)) {
    const found = await repository.linkOnCluster(database.clusters.db(name), token)
    if (found) return found
  }
  return undefined
}

/** One round of the tracking mail worker: sends the due mails of every cluster; answers how many were sent. */
export async function sendDueTrackingMails(deps: AppDeps, logger: FastifyBaseLogger | false = false) {
  const { database } = deps
  if (!database.clusters) return sendDueMailsOf(deps, database.db, logger)
  let sent = 0
  for (const name of database.clusters.names)
    sent += await sendDueMailsOf(deps, database.clusters.db(name), logger)
  return sent
}

/** The due mails whose links `links` (one cluster, or the only database) keeps. */
async function sendDueMailsOf(deps: AppDeps, links: Executor, logger: FastifyBaseLogger | false) {
  const { database, services, config } = deps
  const due = await repository.claimDueMails(links, MAILS_PER_ROUND)
  let sent = 0
  for (const mail of due) {
    try {
      const shipment = await repository.shipmentCode(
        database.db,
        mail.schema_name,
        mail.shipment_id,
        mail.business_id,
      )
      if (!shipment || !mail.email_to) continue
      await services.mailer.send({
        to: mail.email_to,
        subject: `Your delivery ${shipment.code} is on its way`,
        text:
          `Your delivery ${shipment.code} is on its way.\n\n` +
          `Follow it here (no sign-in needed):\n${trackingUrl(config, mail.token)}\n`,
      })
      await repository.markMailed(links, mail.token, true, false)
      sent++
    } catch (error) {
      if (logger) logger.warn({ err: error, shipmentId: mail.shipment_id }, 'tracking mail not sent')
      await repository.markMailed(links, mail.token, false, mail.mail_attempts < MAIL_ATTEMPTS)
    }
  }
  return sent
}
