import { useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react'
import {
  executeQueryMutation,
  getQuerySchemaOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { integer } from '../../lib/format'

const EXAMPLE = 'select name, email, status\nfrom customers\norder by name\nlimit 20'

/** A result cell as text: null stands out, objects and arrays as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** Read-only SELECT over the business's data, with what it may name beside it. */
export default function SqlConsole() {
  const schema = useQuery({ ...getQuerySchemaOptions(), staleTime: 600_000 })
  const run = useMutation(executeQueryMutation())
  const [query, setQuery] = useState(EXAMPLE)
  const [maxRows, setMaxRows] = useState(1000)
  const editor = useRef<HTMLTextAreaElement>(null)
  const [seconds, setSeconds] = useState(0)

  useEffect(() => {
    if (!run.isPending) return
    setSeconds(0)
    const started = Date.now()
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 500)
    return () => clearInterval(timer)
  }, [run.isPending])

  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    if (query.trim()) run.mutate({ body: { query, maxRows } })
  }
  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      submit()
    }
  }
  /** Puts a table or column name at the cursor. */
  const insert = (text: string) => {
    const area = editor.current
    if (!area) return setQuery((q) => `${q}${text}`)
    const { selectionStart, selectionEnd } = area
    const next = `${query.slice(0, selectionStart)}${text}${query.slice(selectionEnd)}`
    setQuery(next)
    requestAnimationFrame(() => {
      area.focus()
      area.setSelectionRange(selectionStart + text.length, selectionStart + text.length)
    })
  }
  const result = run.data?.data

  return (
    <>
      <PageHeader title="SQL console" />
      <div className="sql">
        <aside className="card schema" aria-labelledby="sql-schema">
          <h2 id="sql-schema">What you can query</h2>
          <p className="muted">Your business's rows only. Choose a name to put it in the query.</p>
          {schema.error ? (
            <ErrorNotice error={schema.error} onRetry={() => void schema.refetch()} />
          ) : !schema.data ? (
            <Loading />
          ) : (
            schema.data.data.tables.map((table) => (
              <details key={table.name} open={table.name === 'customers'}>
                <summary>{table.name}</summary>
                <ul>
                  <li>
                    <button type="button" className="link" onClick={() => insert(table.name)}>
                      insert “{table.name}”
                    </button>
                  </li>
                  {table.columns.map((column) => (
                    <li key={column.name}>
                      <button type="button" className="link" onClick={() => insert(column.name)}>
                        <code>{column.name}</code>
                      </button>{' '}
                      <span className="muted">{column.dataType}</span>
                    </li>
                  ))}
                </ul>
              </details>
            ))
          )}
        </aside>
        <div>
          <form className="card" onSubmit={submit}>
            <Field
              label="Query"
              hint="One SELECT (WITH allowed). Ctrl+Enter runs it. Nothing is ever changed."
            >
              {(control) => (
                <textarea
                  {...control}
                  ref={editor}
                  spellCheck={false}
                  value={query}
                  onChange={(event) => setQuery(event.target.value)}
                  onKeyDown={onKey}
                />
              )}
            </Field>
            <div className="toolbar">
              <button type="submit" disabled={run.isPending}>
                {run.isPending ? 'Running…' : 'Run query'}
              </button>
              <Field label="At most">
                {(control) => (
                  <select
                    {...control}
                    value={maxRows}
                    onChange={(event) => setMaxRows(Number(event.target.value))}
                  >
                    {[100, 1000, 10000].map((n) => (
                      <option key={n} value={n}>
                        {integer(n)} rows
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
          </form>
          {run.isPending && <Loading label={`Running the query… ${seconds} s (stopped after 5 s)`} />}
          {run.error ? <ErrorNotice error={run.error} what="The query" /> : null}
          {result && !run.isPending && (
            <section aria-labelledby="sql-result">
              <h2 id="sql-result">
                {integer(result.rowCount)} row{result.rowCount === 1 ? '' : 's'} in{' '}
                {result.elapsedMs.toFixed(1)} ms
              </h2>
              {result.truncated && (
                <div className="notice warn" role="status">
                  Only the first {integer(result.rows.length)} rows are shown: raise “At most”, or narrow the
                  query.
                </div>
              )}
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Query result</caption>
                  <thead>
                    <tr>
                      {result.columns.map((column, index) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: two columns may share a name
                        <th key={`${column.name}-${index}`} scope="col" title={column.dataType}>
                          {column.name}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {result.rows.map((row, rowIndex) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: result rows have no identity of their own
                      <tr key={rowIndex}>
                        {row.map((value, index) => (
                          <td
                            key={result.columns[index]?.name ?? index}
                            className={value === null ? 'muted' : undefined}
                          >
                            {cellText(value)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          )}
        </div>
      </div>
    </>
  )
}
