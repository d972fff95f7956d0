/**
 * Fits the open flow into the canvas at a readable zoom (fitPlan.ts): whole when it fits, from
 * its start when it does not. The Fit button, auto-layout and opening a flow all use it.
 */
import type { ReactFlowInstance } from '@xyflow/react'
import { flowStore } from '../../store/flowStore.ts'
import type { WardRfNode } from '../../store/rfAdapter.ts'
import { isAnnotation } from '../../store/rfAdapter.ts'
import type { FlowEdge, FlowNode } from '../../engine/index.ts'
import { fitPlan, type Box } from './fitPlan.ts'
import { nodeBox } from './newNode.ts'

/**
 * The boxes fitting looks at and the flow's start: the left-most node that nothing leads into
 * (notes are not steps). Nodes of a loop's body are left out: their positions are relative to
 * their loop, whose box holds them (a body's first node has nothing leading into it and a small
 * relative x, so taken as it is it would be the "start" of every flow with a loop).
 */
export function fitBoxes(
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  measured: Readonly<Record<string, { width: number; height: number }>>,
): { boxes: Box[]; start: Box | undefined } {
  const led = new Set(edges.map((e) => e.target))
  const outer = nodes.filter((n) => n.parentId === undefined)
  const start = outer
    .filter((n) => !isAnnotation(n.type) && !led.has(n.id))
    .sort((a, b) => a.position.x - b.position.x || a.position.y - b.position.y)[0]
  return {
    boxes: outer.map((n) => nodeBox(n, measured)),
    start: start ? nodeBox(start, measured) : undefined,
  }
}

export function fitFlow(
  rf: Pick<ReactFlowInstance<WardRfNode>, 'setViewport'>,
  canvas: HTMLElement | null | undefined,
  duration: number,
): void {
  const { nodes, edges, measured, actions } = flowStore.getState()
  const rect = canvas?.getBoundingClientRect()
  if (!rect || nodes.length === 0) return
  const { boxes, start } = fitBoxes(nodes, edges, measured)
  const plan = fitPlan(boxes, start, { width: rect.width, height: rect.height })
  if (!plan) return
  void rf.setViewport(plan, { duration })
  // Kept as the flow's viewport, so reopening it shows the same view.
  actions.setViewport(plan)
}
