/**
 * Edges must name handles their nodes have: an edge from a condition's `billing` case into a
 * node whose type has no such output would be a wire the canvas cannot draw and the run cannot
 * route. An edge without a handle means the node's only port (`out` / `in`), as files written
 * before ports were declared do. A side with no ports (an Input's input) keeps accepting the
 * default id: such edges only order the run, as they always did. A placeholder keeps the wires
 * it was imported with, whatever handles they name (the node it stands for had them).
 */
import {
  DEFAULT_INPUT_PORT,
  DEFAULT_OUTPUT_PORT,
  DEFAULT_PORTS,
  type FlowEdge,
  type FlowNode,
  type NodePorts,
} from '../../engine/index.ts'
import type { NodeLookup } from './nodes.ts'
import type { ImportProblem } from './schema.ts'

/** The ports of each node, by id, from its type's definition (an unknown type: `in` and `out`). */
export function portsByNode(nodes: readonly FlowNode[], lookup: NodeLookup): Map<string, NodePorts> {
  const out = new Map<string, NodePorts>()
  for (const node of nodes) {
    const definition = lookup(node.type)
    if (!definition) {
      out.set(node.id, DEFAULT_PORTS)
      continue
    }
    if (definition.role === 'placeholder') continue
    const parsed = definition.schema.safeParse(node.data.config)
    out.set(node.id, definition.engine.ports(parsed.success ? parsed.data : definition.defaultConfig()))
  }
  return out
}

/** One problem per edge end naming a handle its node does not have; `index` is the edge's. */
export function handleProblems(
  edges: readonly FlowEdge[],
  ports: ReadonlyMap<string, NodePorts>,
): Array<ImportProblem & { index: number }> {
  const problems: Array<ImportProblem & { index: number }> = []
  edges.forEach((edge, index) => {
    const sides = [
      { end: 'sourceHandle', node: edge.source, fallback: DEFAULT_OUTPUT_PORT, side: 'outputs' },
      { end: 'targetHandle', node: edge.target, fallback: DEFAULT_INPUT_PORT, side: 'inputs' },
    ] as const
    for (const { end, node, fallback, side } of sides) {
      const nodePorts = ports.get(node)
      if (!nodePorts) continue // a missing node is reported by graphProblems; a placeholder takes any
      const handle = edge[end] ?? fallback
      const list = nodePorts[side]
      if (list.some((p) => p.id === handle) || (list.length === 0 && handle === fallback)) continue
      const known = list.map((p) => p.id).join(', ') || '-'
      const path = `edges[${index}].${end}`
      const q = JSON.stringify
      // A file that names no handle did not write "out": say what it left out and what to name.
      problems.push(
        edge[end] === undefined
          ? {
              index,
              path,
              message: `Edge ${q(edge.id)} from ${q(edge.source)} to ${q(edge.target)} names no ${end}, which means ${q(handle)}, and node ${q(node)} has no ${q(handle)}: name one of its handles (${known}).`,
              key: 'issues:importProblem.handleMissing',
              params: { id: edge.id, source: edge.source, target: edge.target, end, handle, node, known },
            }
          : {
              index,
              path,
              message: `Edge ${q(edge.id)} names handle ${q(handle)}, which node ${q(node)} does not have (its handles: ${known}).`,
              key: 'issues:importProblem.handleUnknown',
              params: { id: edge.id, handle, node, known },
            },
      )
    }
  })
  return problems
}
