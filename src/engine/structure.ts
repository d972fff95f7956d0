/**
 * Structural checks of a flow: ids, node types, edges and cycles. Preflight lists these with
 * the per-node checks; the runner refuses to start while any blocking one is present.
 */
import { FLOW_MAX_NODES, NODE_ID_PATTERN } from '../defaults.ts'
import type { FlowErrorCode } from './errors.ts'
import { UNSUPPORTED_TYPE, type FlowDocument } from './flow.ts'
import { buildGraph, findCycles, topologicalSort } from './graph.ts'
import type { NodeRegistry } from './nodeType.ts'

export type ProblemSeverity = 'error' | 'warning'

/** One entry of the problems list. `message` is plain English; `params` feed the catalogue. */
export interface Problem {
  code: FlowErrorCode
  /** 'error' problems stop a run; 'warning' ones are shown but do not. */
  severity: ProblemSeverity
  nodeId?: string
  edgeId?: string
  message: string
  params: Record<string, string | number>
}

/** Codes that make `runFlow` refuse to start (the rest fail single nodes, or are warnings). */
export const BLOCKING_CODES: ReadonlySet<FlowErrorCode> = new Set<FlowErrorCode>([
  'TOO_MANY_NODES',
  'DUPLICATE_NODE_ID',
  'UNKNOWN_NODE_TYPE',
  'UNSUPPORTED_NODE',
  'DANGLING_EDGE',
  'SELF_LOOP',
  'CYCLE',
])

/** True when `problem` stops `runFlow` from starting. */
export function isBlocking(problem: Problem): boolean {
  return problem.severity === 'error' && BLOCKING_CODES.has(problem.code)
}

/** `"Label" (id)` for messages; the id alone when the label adds nothing. */
export function nodeLabel(flow: Pick<FlowDocument, 'nodes'>, id: string): string {
  const node = flow.nodes.find((n) => n.id === id)
  const name = node?.data.label?.trim()
  return name && name !== id ? `"${name}" (${id})` : `"${id}"`
}

/** Ids, types, edges, self-loops and cycles, in that order. */
export function structuralProblems(flow: FlowDocument, registry: NodeRegistry): Problem[] {
  const problems: Problem[] = []
  const add = (p: Omit<Problem, 'severity'> & { severity?: ProblemSeverity }): void => {
    problems.push({ severity: 'error', ...p })
  }
  if (flow.nodes.length > FLOW_MAX_NODES) {
    add({
      code: 'TOO_MANY_NODES',
      message: `The flow has ${flow.nodes.length} nodes; at most ${FLOW_MAX_NODES} can run.`,
      params: { count: flow.nodes.length, max: FLOW_MAX_NODES },
    })
  }
  const seen = new Set<string>()
  const byId = new Map<string, FlowDocument['nodes'][number]>()
  for (const node of flow.nodes) {
    if (!NODE_ID_PATTERN.test(node.id)) {
      add({
        code: 'INVALID_NODE_ID',
        nodeId: node.id,
        message: `The node id "${node.id}" may only use letters, digits, _ and - (1 to 64 characters).`,
        params: { nodeId: node.id },
      })
    }
    if (seen.has(node.id)) {
      add({
        code: 'DUPLICATE_NODE_ID',
        nodeId: node.id,
        message: `Two nodes share the id "${node.id}".`,
        params: { nodeId: node.id },
      })
      continue
    }
    seen.add(node.id)
    byId.set(node.id, node)
    const type = registry.get(node.type)
    if (node.type === UNSUPPORTED_TYPE) {
      const original = node.data.config['originalType']
      const originalType = typeof original === 'string' ? original : 'unknown'
      add({
        code: 'UNSUPPORTED_NODE',
        nodeId: node.id,
        message: `${nodeLabel(flow, node.id)} is a "${originalType}" node, which Wardflow cannot run. Remove it or replace it before running.`,
        params: { nodeId: node.id, originalType },
      })
    } else if (!type) {
      add({
        code: 'UNKNOWN_NODE_TYPE',
        nodeId: node.id,
        message: `${nodeLabel(flow, node.id)} has the unknown type "${node.type}".`,
        params: { nodeId: node.id, type: node.type },
      })
    }
  }
  for (const edge of flow.edges) {
    const missing = [edge.source, edge.target].filter((id) => !seen.has(id))
    if (missing.length > 0) {
      add({
        code: 'DANGLING_EDGE',
        edgeId: edge.id,
        message: `The connection "${edge.id}" points to a node that does not exist (${missing.join(', ')}).`,
        params: { edgeId: edge.id, missing: missing.join(', ') },
      })
    } else if (edge.source === edge.target) {
      add({
        code: 'SELF_LOOP',
        edgeId: edge.id,
        nodeId: edge.source,
        message: `${nodeLabel(flow, edge.source)} is connected to itself.`,
        params: { nodeId: edge.source, edgeId: edge.id },
      })
    } else {
      const inert = [edge.source, edge.target].find((id) => {
        const node = byId.get(id)
        return (
          node !== undefined &&
          registry.get(node.type)?.executable === false &&
          node.type !== UNSUPPORTED_TYPE
        )
      })
      if (inert !== undefined) {
        add({
          code: 'DANGLING_EDGE',
          severity: 'warning',
          edgeId: edge.id,
          nodeId: inert,
          message: `The connection "${edge.id}" touches ${nodeLabel(flow, inert)}, which never runs; it is ignored.`,
          params: { edgeId: edge.id, missing: inert },
        })
      }
    }
  }
  const graph = buildGraph(flow, (id) => seen.has(id))
  // Kahn's pass is cheap; the cycle search only runs when it found nodes it could not order.
  const cycles = topologicalSort(graph).cyclic.length > 0 ? findCycles(graph) : []
  for (const cycle of cycles) {
    if (cycle.length < 2) continue // self-loops are reported above, per edge
    const first = cycle[0] as string
    const path = [...cycle, first].join(' → ')
    add({
      code: 'CYCLE',
      nodeId: first,
      message: `These nodes form a loop, so none of them could ever start: ${path}. Remove one of the connections.`,
      params: { nodeId: first, cycle: path, nodes: cycle.join(', ') },
    })
  }
  return problems
}

/** The nodes other nodes run as tools, and those of them no wire touches (tool-only). */
export interface ToolNodes {
  targets: ReadonlySet<string>
  toolOnly: ReadonlySet<string>
}

/** Reads every `toolTargets` hook (Agent `node` tools) of the flow's parsable nodes. */
export function toolNodes(flow: FlowDocument, registry: NodeRegistry): ToolNodes {
  const targets = new Set<string>()
  for (const node of flow.nodes) {
    const hook = registry.get(node.type)?.toolTargets
    if (!hook) continue
    const parsed = registry.get(node.type)?.parseConfig(node.data.config)
    if (parsed?.ok) for (const id of hook(parsed.value)) if (id !== node.id) targets.add(id)
  }
  if (targets.size === 0) return { targets, toolOnly: targets }
  const wired = new Set<string>()
  for (const edge of flow.edges) {
    wired.add(edge.source)
    wired.add(edge.target)
  }
  const exists = new Set(flow.nodes.map((n) => n.id))
  const toolOnly = new Set([...targets].filter((id) => exists.has(id) && !wired.has(id)))
  return { targets, toolOnly }
}
