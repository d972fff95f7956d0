import { describe, expect, it } from 'vitest'
import type { FlowEdge, FlowNode } from '../../src/engine/index.ts'
import { fitBoxes } from '../../src/ui/canvas/fitFlow.ts'

const node = (id: string, type: string, x: number, y: number, extra: Partial<FlowNode> = {}): FlowNode =>
  ({ id, type, position: { x, y }, data: { label: id, config: {} }, ...extra }) as FlowNode

describe('what fitting a flow looks at', () => {
  it('starts a flow at its left-most outer node, never at a loop body node (relative position)', () => {
    const nodes = [
      node('in', 'input', 100, 400),
      node('each', 'loop', 400, 300, { size: { width: 560, height: 280 } }),
      // Relative to the loop: on the canvas at (424, 410), right of the input.
      node('step', 'template', 24, 110, { parentId: 'each' }),
    ]
    const edges: FlowEdge[] = [{ id: 'e1', source: 'in', target: 'each' }]
    const { boxes, start } = fitBoxes(nodes, edges, {})
    expect(start).toMatchObject({ x: 100, y: 400 })
    // The loop's box holds its body: the body's relative box would stretch the bounds to 24.
    expect(boxes.map((b) => b.x).sort((a, b) => a - b)).toEqual([100, 400])
  })
})
