import { type PointerEvent, useRef, useState } from 'react'

interface Gesture {
  pointerId: number
  from: number
  over: number
  x: number
  y: number
  moving: boolean
}

/** How far (CSS px) a pointer travels before a press becomes a drag, so a tap stays a tap. */
const THRESHOLD = 6

/**
 * Rows of a table put in order by dragging, with pointer events, so a finger or a pen works as a
 * mouse does (HTML drag and drop never starts from a touch). A mouse drags a row from anywhere but
 * its buttons and links; a finger or a pen from the row's grip (`.drag-grip`, `touch-action: none`),
 * so that anywhere else a finger still scrolls the page.
 */
export function usePointerReorder() {
  const gesture = useRef<Gesture | null>(null)
  const [shown, setShown] = useState<{ from: number; over: number } | null>(null)

  const end = (onDrop?: (from: number, to: number) => void) => {
    const current = gesture.current
    gesture.current = null
    setShown(null)
    if (onDrop && current?.moving && current.over !== current.from) onDrop(current.from, current.over)
  }

  /** The props of row `index`; `onDrop` moves the row at `from` to `to`. */
  return (index: number, onDrop: (from: number, to: number) => void, disabled: boolean) => ({
    'data-reorder-index': index,
    className: shown?.from === index ? 'dragging' : shown && shown.over === index ? 'drop-target' : undefined,
    onPointerDown: (event: PointerEvent<HTMLTableRowElement>) => {
      if (disabled || !event.isPrimary || event.button !== 0) return
      const target = event.target as Element
      if (target.closest('button, a, input, select, textarea, label')) return
      if (event.pointerType !== 'mouse' && !target.closest('.drag-grip')) return
      // No text selection while dragging with a mouse.
      event.preventDefault()
      event.currentTarget.setPointerCapture(event.pointerId)
      gesture.current = {
        pointerId: event.pointerId,
        from: index,
        over: index,
        x: event.clientX,
        y: event.clientY,
        moving: false,
      }
    },
    onPointerMove: (event: PointerEvent<HTMLTableRowElement>) => {
      const current = gesture.current
      if (!current || current.pointerId !== event.pointerId) return
      if (!current.moving && Math.hypot(event.clientX - current.x, event.clientY - current.y) < THRESHOLD)
        return
      current.moving = true
      // The row under the pointer (the pressed row holds the capture, so events come here).
      const row = document
        .elementFromPoint(event.clientX, event.clientY)
        ?.closest<HTMLElement>('tr[data-reorder-index]')
      const over = row ? Number(row.dataset.reorderIndex) : current.over
      if (Number.isInteger(over)) current.over = over
      setShown({ from: current.from, over: current.over })
    },
    onPointerUp: (event: PointerEvent<HTMLTableRowElement>) => {
      if (gesture.current?.pointerId === event.pointerId) end(onDrop)
    },
    onPointerCancel: () => end(),
  })
}
