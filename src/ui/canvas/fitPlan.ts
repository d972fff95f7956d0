/**
 * Where to look when a flow is fitted into view. A flow that fits at a readable zoom is fitted
 * whole; a bigger one is shown from its start at the smallest readable zoom (its first node at
 * the left, vertically centred), so titles never shrink to dots. Pure: boxes in, viewport out.
 */
import {
  FIT_VIEW_MAX_ZOOM,
  FIT_VIEW_MIN_ZOOM,
  FIT_VIEW_PADDING,
  FIT_VIEW_START_MARGIN_PX,
} from '../../defaults.ts'

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

export interface Viewport {
  x: number
  y: number
  zoom: number
}

/** The box around `boxes`. */
export function boundsOf(boxes: readonly Box[]): Box {
  const minX = Math.min(...boxes.map((b) => b.x))
  const minY = Math.min(...boxes.map((b) => b.y))
  const maxX = Math.max(...boxes.map((b) => b.x + b.width))
  const maxY = Math.max(...boxes.map((b) => b.y + b.height))
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY }
}

/**
 * The viewport for `boxes` on a canvas of `size` pixels. `start` is the flow's first node (the
 * left-most node nothing leads into); it is what a person sees first of a flow too big to fit.
 */
export function fitPlan(
  boxes: readonly Box[],
  start: Box | undefined,
  size: { width: number; height: number },
  minZoom = FIT_VIEW_MIN_ZOOM,
): Viewport | null {
  if (boxes.length === 0 || size.width <= 0 || size.height <= 0) return null
  const bounds = boundsOf(boxes)
  const usable = 1 - 2 * FIT_VIEW_PADDING
  const zoom = Math.min(
    (size.width * usable) / Math.max(bounds.width, 1),
    (size.height * usable) / Math.max(bounds.height, 1),
    FIT_VIEW_MAX_ZOOM,
  )
  if (zoom >= minZoom) {
    return {
      x: size.width / 2 - (bounds.x + bounds.width / 2) * zoom,
      y: size.height / 2 - (bounds.y + bounds.height / 2) * zoom,
      zoom,
    }
  }
  const first = start ?? boundsOf(boxes.filter((b) => b.x === bounds.x))
  return {
    x: FIT_VIEW_START_MARGIN_PX - first.x * minZoom,
    y: size.height / 2 - (first.y + first.height / 2) * minZoom,
    zoom: minZoom,
  }
}
