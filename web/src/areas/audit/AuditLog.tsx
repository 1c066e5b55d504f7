import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getAuditLogOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { ChoiceFilter, DayFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { dateTime, words } from '../../lib/format'
import { useListState } from '../../lib/list-state'

const ENTITY_TYPES = [
  'Customer',
  'Product',
  'Supplier',
  'PurchaseOrder',
  'TransferOrder',
  'Order',
  'Shipment',
  'Role',
]

/** Short text of a changed value: what a person can read in a table cell. */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined) return '—'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

/** Who changed what in the business, newest first, with each field before and after. */
export default function AuditLog() {
  const list = useListState({ filters: { entityType: '', from: '', to: '' } })
  const { entityType, from, to } = list.filters
  const query = {
    ...list.parameters(),
    ...(entityType ? { entityType } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  }
  const entries = useQuery({
    ...getAuditLogOptions({ query }),
    placeholderData: keepPreviousData,
  })
  return (
    <>
      <PageHeader title="Audit log">
        <ExportCsvButton url="/api/v1/audit-log" query={query} fileName="audit-log.csv" />
      </PageHeader>
      <ListToolbar label="Find changes">
        <SearchField hint="Record type, id or action" value={list.search} onChange={list.setSearch} />
        <ChoiceFilter
          label="Record"
          value={entityType}
          onChange={(value) => list.setFilter('entityType', value)}
          choices={ENTITY_TYPES}
        />
        <DayFilter label="From" value={from} onChange={(value) => list.setFilter('from', value)} />
        <DayFilter label="Through" value={to} onChange={(value) => list.setFilter('to', value)} />
      </ListToolbar>
      <Loaded query={entries} what="Loading the audit log">
        {(result) => (
          <PagedTable
            label="Audit log"
            result={result}
            list={list}
            rowKey={(row) => row.id}
            choosePageSize
            empty="No change matches."
            columns={[
              { key: 'when', header: 'When', nowrap: true, render: (row) => dateTime(row.occurredAt) },
              {
                key: 'who',
                header: 'Who',
                render: (row) => `${row.actorType}${row.actorId ? ` ${row.actorId.slice(0, 8)}` : ''}`,
              },
              {
                key: 'what',
                header: 'Record',
                render: (row) => `${words(row.entityType)} ${row.entityId?.slice(0, 8) ?? ''}`,
              },
              { key: 'action', header: 'Action', render: (row) => words(row.action) },
              {
                key: 'changes',
                header: 'Changes',
                render: (row) => {
                  const fields = Object.entries(row.changes)
                  if (fields.length === 0) return '—'
                  return (
                    <ul className="changes">
                      {fields.slice(0, 6).map(([field, change]) => (
                        <li key={field}>
                          <strong>{field}</strong>: {shownValue(change.before)} → {shownValue(change.after)}
                        </li>
                      ))}
                      {fields.length > 6 && <li>and {fields.length - 6} more</li>}
                    </ul>
                  )
                },
              },
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
