/**
 * Marks the edges of the run on the canvas: the ones that carried a value (`wf-edge--taken`)
 * and the ones into a branch that was not taken (`wf-edge--not-taken`). It reads the run
 * store's node states, which a past run opened from history has replayed from its events too.
 */
import { useMemo } from 'react'
import { ownValue } from '../../engine/index.ts'
import { flowStore } from '../../store/flowStore.ts'
import type { WardRfEdge } from '../../store/rfAdapter.ts'
import { takenEdgeIds } from '../../store/runPath.ts'
import { useRunStore, type RunStoreState } from '../../store/runStore.ts'

export const TAKEN_CLASS = 'wf-edge--taken'
export const NOT_TAKEN_CLASS = 'wf-edge--not-taken'

/** "takenIds|notTakenIds" of the shown run, cached on the run's node states and the edges. */
function createSignature(): (state: RunStoreState) => string {
  let lastNodes: RunStoreState['nodes'] | null = null
  let lastEdges: unknown = null
  let last = ''
  return (state) => {
    const { nodes, edges } = flowStore.getState()
    if (state.nodes === lastNodes && edges === lastEdges) return last
    lastNodes = state.nodes
    lastEdges = edges
    if (state.run === null) return (last = '')
    const taken = takenEdgeIds(nodes, edges, state.nodes)
    const notTaken = edges
      .filter((e) => ownValue(state.nodes, e.target)?.skipCode === 'notTaken')
      .map((e) => e.id)
    last = `${[...taken].join(' ')}|${notTaken.join(' ')}`
    return last
  }
}

const signatureOf = createSignature()

export function useRunPathEdges(edges: WardRfEdge[]): WardRfEdge[] {
  const signature = useRunStore(signatureOf)
  return useMemo(() => {
    if (signature === '') return edges
    const [takenPart = '', notTakenPart = ''] = signature.split('|')
    const taken = new Set(takenPart.split(' ').filter(Boolean))
    const notTaken = new Set(notTakenPart.split(' ').filter(Boolean))
    return edges.map((edge) => {
      const className = taken.has(edge.id) ? TAKEN_CLASS : notTaken.has(edge.id) ? NOT_TAKEN_CLASS : undefined
      return className ? { ...edge, className } : edge
    })
  }, [edges, signature])
}
