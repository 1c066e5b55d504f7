import { type Static, Type } from '@sinclair/typebox'
import type { PageRequest } from './envelopes.js'

export const INT32_MAX = 2_147_483_647
export const DEFAULT_PAGE_SIZE = 20

/**
 * Standard list parameters (Page, PageSize, $filter, $orderby, $search). Out-of-range values are a 400 naming the
 * parameter, never silently clamped.
 */
export const ListQuery = Type.Object({
  Page: Type.Integer({
    minimum: 1,
    maximum: INT32_MAX,
    default: 1,
    description: 'page number, first page is 1',
  }),
  PageSize: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: DEFAULT_PAGE_SIZE,
    description: 'items per page, 1 to 100',
  }),
  $orderby: Type.Optional(Type.String({ maxLength: 500, description: 'field [asc|desc], field2 desc, ...' })),
  $filter: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        "OData-style filter: eq ne gt ge lt le, and or not, parentheses, contains/startswith/endswith(field,'text'), field in ('a','b'), null, e.g. status eq 'Active' and dateCreated ge 2026-01-01T00:00:00Z",
    }),
  ),
  $search: Type.Optional(
    Type.String({
      maxLength: 200,
      description: "case-insensitive contains-match over the resource's search fields",
    }),
  ),
})
export type ListQuery = Static<typeof ListQuery>

export const pageRequest = (query: ListQuery): PageRequest => ({ page: query.Page, pageSize: query.PageSize })

/** OFFSET for a page; pages beyond any data are legal and simply empty. */
export const pageOffset = ({ page, pageSize }: PageRequest) => (page - 1) * pageSize
