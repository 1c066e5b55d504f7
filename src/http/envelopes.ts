import { type Static, type TSchema, Type } from '@sinclair/typebox'

/** The two APIs differ on the wire: Core writes statusCode as a name, Global as a number. */
export type ApiFlavor = 'core' | 'global'

export const MessageEntry = Type.Object({
  title: Type.String(),
  message: Type.String(),
  level: Type.String(),
  icon: Type.String(),
  code: Type.String(),
})
export type MessageEntry = Static<typeof MessageEntry>

/** NotificationLevel names: a message entry's `level`. */
export type MessageLevel = 'Standard' | 'Info' | 'Warning' | 'Error' | 'Success' | 'Recommendation'

/**
 * A message entry telling the user something about a success (a line costed at 0, a shipment left
 * out): `code` is stable to branch on, `icon` is the level in lower case for clients that show one.
 */
export const messageEntry = (
  level: MessageLevel,
  code: string,
  title: string,
  message: string,
): MessageEntry => ({
  title,
  message,
  level,
  icon: level.toLowerCase(),
  code,
})

const statusCodeSchema = (flavor: ApiFlavor) =>
  flavor === 'core'
    ? Type.String({ description: 'HTTP status as a name, e.g. OK', examples: ['OK'] })
    : Type.Integer({ description: 'HTTP status as a number, e.g. 200', examples: [200] })

export function SingleResult<T extends TSchema>(flavor: ApiFlavor, data: T) {
  return Type.Object({ data, statusCode: statusCodeSchema(flavor), messages: Type.Array(MessageEntry) })
}

export function PagedResult<T extends TSchema>(flavor: ApiFlavor, item: T) {
  return Type.Object({
    data: Type.Array(item),
    count: Type.Integer({ description: 'items on this page' }),
    totalCount: Type.Integer({ description: 'items on all pages' }),
    page: Type.Integer({ description: 'current page, first page is 1' }),
    finalPage: Type.Integer({ description: 'last page number, at least 1' }),
    pageSize: Type.Integer({ description: 'maximum items per page' }),
    hasMore: Type.Boolean({ description: 'true when a later page exists' }),
    statusCode: statusCodeSchema(flavor),
    messages: Type.Array(MessageEntry),
  })
}

const successStatus = (flavor: ApiFlavor) => (flavor === 'core' ? 'OK' : 200)

export function single<T>(
  flavor: 'core',
  data: T,
  messages?: MessageEntry[],
): { data: T; statusCode: string; messages: MessageEntry[] }
export function single<T>(
  flavor: 'global',
  data: T,
  messages?: MessageEntry[],
): { data: T; statusCode: number; messages: MessageEntry[] }
export function single<T>(flavor: ApiFlavor, data: T, messages: MessageEntry[] = []) {
  return { data, statusCode: successStatus(flavor), messages }
}

export interface PageRequest {
  page: number
  pageSize: number
}

/** Builds a consistent PagedResult: `finalPage` is at least 1 and `hasMore` is derived, never stored. */
export function paged<T>(flavor: ApiFlavor, data: T[], totalCount: number, { page, pageSize }: PageRequest) {
  const finalPage = Math.max(1, Math.ceil(totalCount / pageSize))
  return {
    data,
    count: data.length,
    totalCount,
    page,
    finalPage,
    pageSize,
    hasMore: page < finalPage,
    statusCode: successStatus(flavor),
    messages: [] as MessageEntry[],
  }
}
