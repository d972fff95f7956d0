/**
 * What a run has spent so far, as the run panel's cost figure shows it (ui-contract `run-cost`):
 * tokens and USD summed from the top-level nodes' `nodeFinish` usage while the run goes (a loop's
 * or sub-flow's node already includes its body, so nested events are not added again), then the
 * run's own total from `runFinish`. Pure: the reducer calls it.
 */
import type { Usage } from '../engine/index.ts'

/** One node's share: `costUsd` null when none of its calls had a known price, undefined when not counted. */
export interface NodeSpent {
  nodeId: string
  tokens: number
  estimated: boolean
  costUsd?: number | null
}

export interface RunSpent {
  tokens: number
  estimated: boolean
  /** USD of the priced calls; meaningful when `priced`. */
  costUsd: number
  /** True once some call had a known price (0 USD included). */
  priced: boolean
  /** Calls whose price was not known: known at the run's end (runFinish). */
  unpricedCalls?: number
  /** Nodes that reported usage, in the order they finished (a rerun of a node replaces its entry). */
  nodes: readonly NodeSpent[]
}

export const NOTHING_SPENT: RunSpent = { tokens: 0, estimated: false, costUsd: 0, priced: false, nodes: [] }

function total(nodes: readonly NodeSpent[]): RunSpent {
  let tokens = 0
  let costUsd = 0
  let priced = false
  let estimated = false
  for (const node of nodes) {
    tokens += node.tokens
    estimated ||= node.estimated
    if (typeof node.costUsd === 'number') {
      costUsd += node.costUsd
      priced = true
    }
  }
  return { tokens, estimated, costUsd, priced, nodes }
}

/** Adds a top-level node's finished usage. */
export function withNodeSpent(spent: RunSpent, nodeId: string, usage: Usage): RunSpent {
  const entry: NodeSpent = { nodeId, tokens: usage.total, estimated: usage.estimated, costUsd: usage.costUsd }
  const nodes = spent.nodes.some((n) => n.nodeId === nodeId)
    ? spent.nodes.map((n) => (n.nodeId === nodeId ? entry : n))
    : [...spent.nodes, entry]
  return total(nodes)
}

/** The run's own figures from `runFinish`, which win over the nodes' sum. */
export function withRunFinished(spent: RunSpent, usage: Usage): RunSpent {
  const counted = typeof usage.costUsd === 'number'
  return {
    nodes: spent.nodes,
    tokens: usage.total,
    estimated: usage.estimated,
    costUsd: counted ? (usage.costUsd as number) : spent.costUsd,
    priced: counted || spent.priced,
    ...(usage.unpricedCalls === undefined ? {} : { unpricedCalls: usage.unpricedCalls }),
  }
}
