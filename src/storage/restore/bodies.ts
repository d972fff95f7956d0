/**
 * Container bodies (flow-control.md, `loop`): a node's `parentId` must name a node whose type is
 * a container, and edges join nodes of the same body only; an edge into or out of a body crosses
 * the container node itself. A body node wired to the canvas would run once outside the loop
 * and once per iteration inside it, which no one means.
 */
import type { FlowEdge, FlowNode } from '../../engine/index.ts'
import type { NodeLookup } from './nodes.ts'
import type { ImportProblem } from './schema.ts'

export function bodyProblems(
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  lookup: NodeLookup,
): ImportProblem[] {
  const problems: ImportProblem[] = []
  const byId = new Map(nodes.map((n) => [n.id, n]))
  nodes.forEach((node, i) => {
    if (node.parentId === undefined) return
    const parent = byId.get(node.parentId)
    const path = `nodes[${i}].parentId`
    const params = { node: node.id, parent: node.parentId }
    if (parent === undefined)
      problems.push({
        path,
        message: `Node ${JSON.stringify(node.id)} is inside ${JSON.stringify(node.parentId)}, which is not in the file.`,
        key: 'issues:importProblem.body.parentMissing',
        params,
      })
    else if (parent.id === node.id || lookup(parent.type)?.engine.container !== true)
      problems.push({
        path,
        message: `Node ${JSON.stringify(node.id)} is inside ${JSON.stringify(node.parentId)}, which is not a loop.`,
        key: 'issues:importProblem.body.parentNotLoop',
        params,
      })
  })
  edges.forEach((edge, k) => {
    const [source, target] = [byId.get(edge.source), byId.get(edge.target)]
    if (!source || !target || source.parentId === target.parentId) return
    const where = (n: FlowNode) =>
      n.parentId === undefined ? 'the canvas' : `loop ${JSON.stringify(n.parentId)}`
    problems.push({
      path: `edges[${k}]`,
      message: `Edge ${JSON.stringify(edge.id)} joins ${JSON.stringify(source.id)} (in ${where(source)}) to ${JSON.stringify(target.id)} (in ${where(target)}); wire a loop's body to its own nodes only, and the loop node to the rest.`,
      key: 'issues:importProblem.body.edgeCrosses',
      params: { id: edge.id, source: source.id, target: target.id },
    })
  })
  return problems
}
