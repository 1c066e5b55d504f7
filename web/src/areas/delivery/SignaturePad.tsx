import { type PointerEvent, useEffect, useRef } from 'react'
import type { FieldControlProps } from '../../components/Field'

export interface SignaturePadHandle {
  isEmpty(): boolean
  clear(): void
  /** The drawing as a PNG (white background, so it prints as it was signed). */
  toPng(): Promise<Blob | null>
}

/** A box to sign in with a finger, a pen or the mouse. */
export function SignaturePad({
  id,
  'aria-describedby': describedBy,
  onReady,
}: FieldControlProps & { onReady: (handle: SignaturePadHandle) => void }) {
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
    clear()
    onReady({
      isEmpty: () => !drawn.current,
      clear,
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
      aria-label="Signature box"
      aria-describedby={describedBy}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
    />
  )
}
