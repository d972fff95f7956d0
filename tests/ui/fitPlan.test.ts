import { describe, expect, it } from 'vitest'
import { FIT_VIEW_MAX_ZOOM, FIT_VIEW_MIN_ZOOM, FIT_VIEW_START_MARGIN_PX } from '../../src/defaults.ts'
import { fitPlan, type Box } from '../../src/ui/canvas/fitPlan.ts'

const canvas = { width: 800, height: 500 }
const node = (x: number, y: number): Box => ({ x, y, width: 260, height: 60 })

describe('fitting a flow into view', () => {
  it('fits a flow that fits at a readable zoom, centred, never zooming in past the maximum', () => {
    const boxes = [node(0, 0), node(300, 100)]
    const plan = fitPlan(boxes, boxes[0], canvas)
    expect(plan?.zoom).toBeGreaterThanOrEqual(FIT_VIEW_MIN_ZOOM)
    expect(plan?.zoom).toBeLessThanOrEqual(FIT_VIEW_MAX_ZOOM)
    // The middle of the flow lands in the middle of the canvas.
    const zoom = plan?.zoom ?? 0
    expect((280 * zoom + (plan?.x ?? 0)) / canvas.width).toBeCloseTo(0.5, 5)
    expect(fitPlan([node(0, 0)], undefined, canvas)?.zoom).toBe(FIT_VIEW_MAX_ZOOM)
  })

  it('shows a flow too big to fit from its start at the smallest readable zoom', () => {
    const boxes = Array.from({ length: 40 }, (_, i) => node(i * 340, (i % 3) * 100))
    const start = node(0, 100)
    const plan = fitPlan([...boxes, start], start, canvas)
    expect(plan?.zoom).toBe(FIT_VIEW_MIN_ZOOM)
    expect(plan?.x).toBeCloseTo(FIT_VIEW_START_MARGIN_PX, 5)
    // The start node is vertically centred.
    expect((130 * FIT_VIEW_MIN_ZOOM + (plan?.y ?? 0)) / canvas.height).toBeCloseTo(0.5, 5)
  })

  it('has nothing to fit on an empty flow or a canvas with no size', () => {
    expect(fitPlan([], undefined, canvas)).toBeNull()
    expect(fitPlan([node(0, 0)], undefined, { width: 0, height: 0 })).toBeNull()
  })
})
