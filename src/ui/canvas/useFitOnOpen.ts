/**
 * Fits a flow into view when it opens without a view of its own: a new or imported flow (import
 * drops the file's viewport, made on another screen) or one never moved. A flow with a saved
 * viewport reopens exactly where the person left it. Waits until React Flow measured the nodes.
 */
import { useEffect, useRef } from 'react'
import { useReactFlow, useStore as useRfStore, type ReactFlowState } from '@xyflow/react'
import { CANVAS_VISIBLE_ONLY_MIN_NODES } from '../../defaults.ts'
import { EMPTY_VIEWPORT, flowStore } from '../../store/flowStore.ts'
import type { WardRfNode } from '../../store/rfAdapter.ts'
import { fitFlow } from './fitFlow.ts'

function hasOwnView(): boolean {
  const v = flowStore.getState().viewport
  return v.x !== EMPTY_VIEWPORT.x || v.y !== EMPTY_VIEWPORT.y || v.zoom !== EMPTY_VIEWPORT.zoom
}

/** How many nodes React Flow has measured: the fit waits for all of the open flow's. */
function measuredCount(s: ReactFlowState): number {
  let count = 0
  for (const node of s.nodeLookup.values()) if (node.measured.width !== undefined) count += 1
  return count
}

export function useFitOnOpen(flowId: string | null): void {
  const rf = useReactFlow<WardRfNode>()
  const domNode = useRfStore((s) => s.domNode)
  const measured = useRfStore(measuredCount)
  const done = useRef<string | null>(null)
  useEffect(() => {
    if (flowId === null || done.current === flowId) return
    const { nodes } = flowStore.getState()
    // Measured must mean this flow's nodes, not the last flow's (the switch takes a render). A
    // flow big enough that off-screen nodes are not rendered fits with their nominal sizes, once
    // one of its nodes was measured: before that the canvas keyed to this flow has just mounted
    // and sets its default viewport after this effect, undoing a fit made now.
    const isMeasured = (n: { id: string }) => rf.getInternalNode(n.id)?.measured.width !== undefined
    const waiting = !nodes.every(isMeasured)
    if (waiting && (nodes.length <= CANVAS_VISIBLE_ONLY_MIN_NODES || !nodes.some(isMeasured))) return
    done.current = flowId
    if (nodes.length > 0 && !hasOwnView()) fitFlow(rf, domNode, 0)
  }, [flowId, measured, rf, domNode])
}
