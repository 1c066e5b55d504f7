import { type PointerEvent, useEffect, useRef } from 'react'
import type { FieldControlProps } from '../../components/Field'

export interface SignaturePadHandle {
  isEmpty(): boolean
  clear(): void
  /** Replaces the drawing with `text` written across the box (a signature typed, not drawn). */
  write(text: string): void
  /** The drawing as a PNG (white background, so it prints as it was signed). */
  toPng(): Promise<Blob | null>
}

/**
 * A box to sign in with a finger, a pen or the mouse; or, for whoever cannot draw (a keyboard, a
 * screen reader), a name typed elsewhere is written into it, so the proof is the same kind of image.
 */
export function SignaturePad({
  id,
  'aria-describedby': describedBy,
  label = 'Signature box',
  readOnly = false,
  onReady,
}: FieldControlProps & {
  /** What a screen reader hears: the box, and what is in it. */
  label?: string
  /** Shows a typed signature: drawing in it does nothing. */
  readOnly?: boolean
  onReady: (handle: SignaturePadHandle) => void
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const drawn = useRef(false)
  const last = useRef<{ x: number; y: number } | null>(null)

  useEffect(() => {
    const element = canvas.current
    if (!element) return
    const context = element.getContext('2d')
    const clear = () => {
      if (!context) return
      context.fillStyle = '#fff'
      context.fillRect(0, 0, element.width, element.height)
      drawn.current = false
    }
    const write = (text: string) => {
      clear()
      if (!context || !text.trim()) return
      // As large as fits the box, in the browser's handwriting face (no web font: the page loads
      // fonts from itself only, and a signature needs none to be read).
      let size = 72
      const face = (px: number) => `italic ${px}px "Segoe Script", "Brush Script MT", cursive, serif`
      context.font = face(size)
      while (size > 16 && context.measureText(text).width > element.width - 48) {
        size -= 4
        context.font = face(size)
      }
      context.fillStyle = '#111'
      context.textAlign = 'center'
      context.textBaseline = 'middle'
      context.fillText(text.trim(), element.width / 2, element.height / 2)
      context.fillRect(24, element.height - 40, element.width - 48, 2)
      drawn.current = true
    }
    clear()
    onReady({
      isEmpty: () => !drawn.current,
      clear,
      write,
      toPng: () => new Promise((resolve) => element.toBlob((blob) => resolve(blob), 'image/png')),
    })
  }, [onReady])

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const element = event.currentTarget
    const box = element.getBoundingClientRect()
    return {
      x: ((event.clientX - box.left) * element.width) / box.width,
      y: ((event.clientY - box.top) * element.height) / box.height,
    }
  }
  const down = (event: PointerEvent<HTMLCanvasElement>) => {
    if (readOnly) return
    event.currentTarget.setPointerCapture(event.pointerId)
    last.current = point(event)
  }
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    const from = last.current
    const context = event.currentTarget.getContext('2d')
    if (!from || !context) return
    const to = point(event)
    context.strokeStyle = '#111'
    context.lineWidth = 3
    context.lineCap = 'round'
    context.beginPath()
    context.moveTo(from.x, from.y)
    context.lineTo(to.x, to.y)
    context.stroke()
    last.current = to
    drawn.current = true
  }
  const up = () => {
    last.current = null
  }

  return (
    <canvas
      ref={canvas}
      id={id}
      className="signature"
      width={600}
      height={220}
      role="img"
      aria-label={label}
      aria-describedby={describedBy}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
    />
  )
}
