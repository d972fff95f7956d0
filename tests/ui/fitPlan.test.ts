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

describe('room for consoles', () => {
  it('the console box of canvas.css is the size auto-layout reserves for it', async () => {
    const { readFileSync } = await import('node:fs')
    const css = readFileSync(new URL('../../src/ui/theme/canvas.css', import.meta.url), 'utf8')
    const { NODE_CONSOLE_BOX_PX } = await import('../../src/defaults.ts')
    expect(/--console-max-h:\s*(\d+)px/.exec(css)?.[1]).toBe(String(NODE_CONSOLE_BOX_PX))
  })

  it('auto-layout leaves a console’s room under every node that runs', async () => {
    const { layoutLeftToRight } = await import('../../src/ui/canvas/layout.ts')
    const { NODE_BODY_HEIGHT_PX, NODE_CONSOLE_BOX_PX } = await import('../../src/defaults.ts')
    const nodes = ['a', 'b', 'c'].map((id) => ({
      id,
      type: 'code',
      position: { x: 0, y: 0 },
      data: { label: id, config: {} },
    }))
    const edges = [
      { id: 'ab', source: 'a', target: 'b' },
      { id: 'ac', source: 'a', target: 'c' },
    ]
    const at = await layoutLeftToRight(nodes, edges, {
      b: { width: 260, height: 86 },
      c: { width: 260, height: 86 },
    })
    const gap = Math.abs((at.get('b')?.y ?? 0) - (at.get('c')?.y ?? 0))
    expect(gap).toBeGreaterThanOrEqual(NODE_BODY_HEIGHT_PX + NODE_CONSOLE_BOX_PX)
  })
})
