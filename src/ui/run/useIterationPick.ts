/**
 * The iteration a loop's picker shows (run store `iterationPicks`), as its body nodes read it:
 * their consoles and run details show that iteration instead of the latest.
 */
import { iterationOf, loopOfRecords, type IterationRecord } from '../../store/iterationRecords.ts'
import { nodeStateOf, useRunStore } from '../../store/runStore.ts'

/**
 * The picked iteration's record of a loop body node; null when one is picked but this node has
 * none for it (it did not run then, or it is no longer kept); undefined when its loop follows the
 * latest (or the node is not in a loop). Returns the store's own object, so a node re-renders
 * only when its picked record changes.
 */
export function usePickedIteration(nodeId: string): IterationRecord | null | undefined {
  return useRunStore((s) => {
    const records = nodeStateOf(s.nodes, nodeId).iterations
    const loopId = loopOfRecords(records)
    if (loopId === undefined) return undefined
    const key = Object.hasOwn(s.iterationPicks, loopId) ? s.iterationPicks[loopId] : undefined
    if (key === undefined) return undefined
    return iterationOf(records, key) ?? null
  })
}
