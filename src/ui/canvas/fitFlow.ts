/**
 * Fits the open flow into the canvas at a readable zoom (fitPlan.ts): whole when it fits, from
 * its start when it does not. The Fit button, auto-layout and opening a flow all use it.
 */
import type { ReactFlowInstance } from '@xyflow/react'
import { flowStore } from '../../store/flowStore.ts'
import type { WardRfNode } from '../../store/rfAdapter.ts'
import { isAnnotation } from '../../store/rfAdapter.ts'
import { fitPlan } from './fitPlan.ts'
import { nodeBox } from './newNode.ts'

export function fitFlow(
  rf: Pick<ReactFlowInstance<WardRfNode>, 'setViewport'>,
  canvas: HTMLElement | null | undefined,
  duration: number,
): void {
  const { nodes, edges, measured, actions } = flowStore.getState()
  const rect = canvas?.getBoundingClientRect()
  if (!rect || nodes.length === 0) return
  const led = new Set(edges.map((e) => e.target))
  // The flow's start: the left-most node that nothing leads into (notes are not steps).
  const start = nodes
    .filter((n) => !isAnnotation(n.type) && !led.has(n.id))
    .sort((a, b) => a.position.x - b.position.x || a.position.y - b.position.y)[0]
  const plan = fitPlan(
    nodes.map((n) => nodeBox(n, measured)),
    start ? nodeBox(start, measured) : undefined,
    { width: rect.width, height: rect.height },
  )
  if (!plan) return
  void rf.setViewport(plan, { duration })
  // Kept as the flow's viewport, so reopening it shows the same view.
  actions.setViewport(plan)
}
