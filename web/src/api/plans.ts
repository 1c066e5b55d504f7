import { client } from './generated/core/client.gen'
import type {
  AutoBatchShipmentsResponses,
  CancelDispatchResponses,
  CompleteDispatchResponses,
  DispatchPlanResponses,
  GetDeliveryPlanTimelineResponses,
  GetDispatchResponses,
  RemoveShipmentFromDispatchResponses,
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

export async function autobatchPlan(planId: string): Promise<boolean> {
  const { data } = await client.post<AutoBatchShipmentsResponses, unknown, true>({
    url: url(planId, '/autobatch'),
    throwOnError: true,
  })
  return data.data
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
