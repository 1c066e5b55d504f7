import { client } from './generated/core/client.gen'
import type {
  AutoBatchShipmentsResponses,
  CancelDispatchResponses,
  CompleteDispatchResponses,
  DispatchPlanResponses,
  GetDeliveryPlanTimelineResponses,
  GetDispatchResponses,
  RemoveShipmentFromDispatchResponses,
  ReorderPlanStopsResponses,
  ScheduleDispatchResponses,
} from './generated/core/types.gen'

/**
 * A delivery plan's own operations (/api/v1/plans/<id>...). The published document names the id
 * `dispatchId` on some of these paths and `deliveryPlanId` on others; calling them by URL, with the
 * types of their operations, keeps the console independent of which name the document settles on.
 */
const url = (planId: string, rest = '') => `/api/v1/plans/${encodeURIComponent(planId)}${rest}`

export type Plan = GetDispatchResponses[200]['data']
export type PlanTimeline = GetDeliveryPlanTimelineResponses[200]['data']
export type PlanMove = 'schedule' | 'dispatch' | 'complete' | 'cancel'

export const planKey = (planId: string) => ['plan', planId] as const
export const planTimelineKey = (planId: string) => ['plan', planId, 'timeline'] as const

export async function getPlan(planId: string, signal?: AbortSignal): Promise<Plan> {
  const { data } = await client.get<GetDispatchResponses, unknown, true>({
    url: url(planId),
    throwOnError: true,
    ...(signal ? { signal } : {}),
  })
  return data.data
}

export async function getPlanTimeline(planId: string, signal?: AbortSignal): Promise<PlanTimeline> {
  const { data } = await client.get<GetDeliveryPlanTimelineResponses, unknown, true>({
    url: url(planId, '/timeline'),
    throwOnError: true,
    ...(signal ? { signal } : {}),
  })
  return data.data
}

/** A message entry of the answer's envelope: `code` is stable to branch on. */
export interface ApiMessage {
  code: string
  title: string
  message: string
  level: string
}

const messagesOf = (body: unknown): ApiMessage[] => {
  const messages = (body as { messages?: unknown }).messages
  return Array.isArray(messages) ? (messages as ApiMessage[]) : []
}

/** Autobatch: the messages name each shipment of the day left out, and why. */
export async function autobatchPlan(planId: string): Promise<{ done: boolean; messages: ApiMessage[] }> {
  const { data } = await client.post<AutoBatchShipmentsResponses, unknown, true>({
    url: url(planId, '/autobatch'),
    throwOnError: true,
  })
  return { done: data.data, messages: messagesOf(data) }
}

/** Re-optimising: the plan with its open stops re-ordered and their new planned arrivals. */
export async function reoptimisePlan(planId: string): Promise<{ plan: Plan; messages: ApiMessage[] }> {
  const { data } = await client.post<GetDispatchResponses, unknown, true>({
    url: url(planId, '/reoptimise'),
    throwOnError: true,
  })
  return { plan: data.data, messages: messagesOf(data) }
}

export async function movePlan(planId: string, move: PlanMove): Promise<Plan> {
  type Moved =
    | ScheduleDispatchResponses
    | DispatchPlanResponses
    | CompleteDispatchResponses
    | CancelDispatchResponses
  const { data } = await client.post<Moved, unknown, true>({
    url: url(planId, `/${move}`),
    throwOnError: true,
  })
  return data.data
}

export async function removeShipmentFromPlan(planId: string, shipmentId: string): Promise<boolean> {
  const { data } = await client.delete<RemoveShipmentFromDispatchResponses, unknown, true>({
    url: url(planId, `/shipments/${encodeURIComponent(shipmentId)}`),
    throwOnError: true,
  })
  return data.data
}

/** Puts the plan's stops in the order of `shipmentIds` (every shipment on it, once); answers the plan. */
export async function reorderStops(planId: string, shipmentIds: readonly string[]): Promise<Plan> {
  const { data } = await client.put<ReorderPlanStopsResponses, unknown, true>({
    url: url(planId, '/stops'),
    body: { shipmentIds: [...shipmentIds] },
    headers: { 'Content-Type': 'application/json' },
    throwOnError: true,
  })
  return data.data
}

/** The moves a plan's state allows (the server decides; the console offers only these). */
export function planMoves(status: Plan['status']): PlanMove[] {
  switch (status) {
    case 'Draft':
      return ['schedule', 'cancel']
    case 'Scheduled':
      return ['dispatch', 'cancel']
    case 'Dispatched':
      return ['complete']
    default:
      return []
  }
}
