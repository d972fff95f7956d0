/**
 * A node's error and skip lines in the UI's language. The engine writes them in English (the CLI
 * prints those); in another language the line leads with the catalogue's explanation of the
 * error's code and keeps the system's own detail (a server's words, a stack message) after it.
 */
import type { FlowEdge, FlowNode } from '../../engine/index.ts'
import { nodeCatalog } from '../../nodes/registry.ts'
import { notTakenCause } from '../../store/runPath.ts'
import type { LineLabeller, NodeRunState } from '../../store/runStore.ts'
import type { Translate } from './runRefusal.ts'

/** The flow being run: where a not-taken line finds the condition that chose another branch. */
export type GraphOf = () => { nodes: readonly FlowNode[]; edges: readonly FlowEdge[] }

function notTakenLine(
  t: Translate,
  nodeId: string | undefined,
  graph: GraphOf | undefined,
  runNodes: Readonly<Record<string, NodeRunState>> | undefined,
): string | undefined {
  if (!graph || nodeId === undefined || !runNodes) return undefined
  const { nodes, edges } = graph()
  const cause = notTakenCause(nodeId, nodes, edges, runNodes)
  const source = cause ? nodes.find((n) => n.id === cause.nodeId) : undefined
  if (!cause || !source) return undefined
  const port = nodeCatalog.ports(source).outputs.find((p) => p.id === cause.chose)
  const choice = port?.label ?? (port?.labelKey ? t(port.labelKey) : cause.chose)
  return t('run:lines.notTakenBy', { name: source.data.label || source.id, case: choice })
}

export function runLineLabeller(
  t: Translate,
  labelOf: (nodeId: string) => string | undefined,
  graph?: GraphOf,
): LineLabeller {
  return {
    error(code, message) {
      const text = t(`errors:${code}`, { defaultValue: message })
      if (code === 'CANCELLED' || text === message) return text
      return t('run:lines.error', { text, message })
    },
    skipped(event, runNodes) {
      if (event.failedNodeId !== undefined)
        return t('run:lines.skippedAfter', {
          name: labelOf(event.failedNodeId) || event.failedNodeId,
          defaultValue: event.message ?? event.reason,
        })
      const message = event.message ?? event.reason
      if (event.stopped) return t('run:lines.stopped', { defaultValue: message })
      if (event.reason === 'notTaken')
        return (
          notTakenLine(t, event.nodeId, graph, runNodes) ?? t('run:lines.notTaken', { defaultValue: message })
        )
      if (event.reason === 'notRequested') return t('run:lines.notRequested', { defaultValue: message })
      return message
    },
  }
}
