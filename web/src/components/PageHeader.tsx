import { type ReactNode, useEffect, useRef } from 'react'

/**
 * The page's heading, focused when the page opens so keyboard and screen-reader users land on it
 * after following a link; the document title follows it.
 */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${title} · Cartage`
    heading.current?.focus({ preventScroll: true })
  }, [title])
  return (
    <div className="page-header">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children && <div className="actions">{children}</div>}
    </div>
  )
}
