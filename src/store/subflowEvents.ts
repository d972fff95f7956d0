/**
 * Events from inside a sub-flow (they carry `path`) name nodes of the called flow, whose ids
 * may repeat the calling flow's. They never change a node of the canvas: what matters of them
 * (a failure, a guard alert) becomes a line in the console of the calling node, `path[0]`.
 */
import type { RunEvent } from '../engine/index.ts'
import type { ConsoleLine, LineLabeller } from './runStoreReducer.ts'

/** `call › inner` for the node `inner` of the flow `call` runs. */
function where(path: readonly string[], nodeId: string): string {
  return [...path.slice(1), nodeId].join(' › ')
}

/** The calling node's console line for a sub-flow event, or null for none. */
export function subflowLine(event: RunEvent & { path: string[] }, lines?: LineLabeller): ConsoleLine | null {
  switch (event.type) {
    case 'nodeError':
      if (event.code === 'CANCELLED') return null
      return {
        kind: 'error',
        text: `${where(event.path, event.nodeId)}: ${lines ? lines.error(event.code, event.message) : event.message}`,
      }
    case 'guard':
      return {
        kind: 'guard',
        layer: event.layer,
        level: event.level,
        text: `${where(event.path, event.nodeId)}: ${event.message}`,
      }
    default:
      return null
  }
}
