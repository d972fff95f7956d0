/**
 * A node's run state at rest, and the lookup every view uses: the small part of the run store's
 * model the page needs from its start (node bodies ask for their state before any run). The
 * reducer that folds events into these states (runStoreReducer.ts) loads with the run area.
 */
import { ownValue } from '../engine/index.ts'
import type { NodeRunState } from './runStoreReducer.ts'

export const IDLE_RUN_STATE: NodeRunState = Object.freeze({
  status: 'idle',
  consoleLines: Object.freeze([]),
}) as NodeRunState

/**
 * A node's state in `nodes`, idle when it has none. Node ids come from files and may be any
 * name (`constructor`, `__proto__`): only own entries count, and the records this reducer builds
 * have no prototype (engine/keyed.ts).
 */
export function nodeStateOf(nodes: Readonly<Record<string, NodeRunState>>, id: string): NodeRunState {
  return ownValue(nodes, id) ?? IDLE_RUN_STATE
}
