/** The upstream references of a node, from the flow and the run store's last outputs. */
import { useMemo } from 'react'
import { ownValue } from '../../../engine/index.ts'
import { useFlowStore } from '../../../store/flowStore.ts'
import { useRunStore } from '../../../store/runStore.ts'
import { upstreamRefs, type UpstreamGroup } from './upstreamFields.ts'

export function useUpstreamRefs(nodeId: string): UpstreamGroup[] {
  const nodes = useFlowStore((s) => s.nodes)
  const edges = useFlowStore((s) => s.edges)
  const runNodes = useRunStore((s) => s.nodes)
  return useMemo(
    () => upstreamRefs(nodeId, nodes, edges, (id) => ownValue(runNodes, id)?.output),
    [nodeId, nodes, edges, runNodes],
  )
}
