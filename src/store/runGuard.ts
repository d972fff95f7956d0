/**
 * The whole-run budget's line in the run panel (`run-guard`): its hint and trip reach the run's
 * summary as well as the console of the node whose call crossed the line, because a trip stops
 * every node and a person looking at the run panel should not have to find that one console.
 */
import type { RunEvent } from '../engine/index.ts'

export interface RunGuardLine {
  level: 'hint' | 'trip'
  unit: 'tokens' | 'usd'
  total: number
  budget: number
  /** The canvas node whose call crossed the line (inside a sub-flow: the node that calls it). */
  nodeId: string
}

/** The run-scope budget line an event carries, else undefined (every other event). */
export function runGuardOf(event: RunEvent): RunGuardLine | undefined {
  if (event.type !== 'guard' || event.layer !== 'budget' || event.scope !== 'run') return undefined
  const nodeId = event.path?.[0] ?? event.nodeId
  return {
    level: event.level,
    unit: event.unit ?? 'tokens',
    total: event.total ?? 0,
    budget: event.budget ?? 0,
    nodeId,
  }
}
