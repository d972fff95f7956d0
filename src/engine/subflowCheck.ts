/**
 * Preflight of the flows a flow calls: every `subflow` node's chain of called flows is followed
 * through the host's FlowLookup, and a missing flow, a circle (`a -> b -> a`), a chain deeper
 * than SUBFLOW_MAX_DEPTH or a called flow that cannot run is reported on the calling node.
 */
import { SUBFLOW_MAX_DEPTH } from '../defaults.ts'
import type { FlowDocument } from './flow.ts'
import type { NodeRegistry } from './nodeType.ts'
import type { Problem } from './structure.ts'
import { nodeLabel } from './structure.ts'
import type { FlowLookup } from './subflow.ts'

/**
 * `a -> b -> a`, how messages name a chain of flows. Here, not in subflow.ts, so preflight (which
 * the editor runs from the start) does not bring the sub-flow runner with it.
 */
export function chainText(chain: readonly string[]): string {
  return chain.join(' -> ')
}

/** The flow id each `subflow` node of `doc` calls, with the node's id ('' ids left out). */
export function calledFlows(
  doc: FlowDocument,
  registry: NodeRegistry,
): Array<{ nodeId: string; flowId: string }> {
  const out: Array<{ nodeId: string; flowId: string }> = []
  for (const node of doc.nodes) {
    const type = registry.get(node.type)
    if (!type?.callsFlow) continue
    const parsed = type.parseConfig(node.data.config)
    const flowId = parsed.ok ? type.callsFlow(parsed.value) : ''
    if (flowId !== '') out.push({ nodeId: node.id, flowId })
  }
  return out
}

type Found =
  | { code: 'SUBFLOW_NOT_FOUND' | 'SUBFLOW_RECURSION' | 'SUBFLOW_TOO_DEEP'; chain: string[] }
  | { code: 'SUBFLOW_FAILED'; chain: string[]; reason: string }

/**
 * The problems of `flow`'s `subflow` nodes. `inner` lists a called flow's own blocking problems
 * (preflight without the lookup, so it never recurses; the walk here covers the chain).
 */
export function subflowProblems(
  flow: FlowDocument,
  registry: NodeRegistry,
  flows: FlowLookup,
  inner: (doc: FlowDocument) => readonly Problem[],
): Problem[] {
  const top = flow.metadata.id
  // A flow whose whole subtree passed when reached by a chain of this length also passes from
  // any shorter chain (only depth depends on the chain: a circle through it would have shown).
  const passedAt = new Map<string, number>()
  const innerOf = new Map<string, string | null>()
  const walk = (chain: string[]): Found | null => {
    const id = chain[chain.length - 1] as string
    if ((passedAt.get(id) ?? 0) >= chain.length) return null
    const called = flows.get(id)
    if (!called) return { code: 'SUBFLOW_NOT_FOUND', chain }
    if (chain.length - 1 > SUBFLOW_MAX_DEPTH) return { code: 'SUBFLOW_TOO_DEEP', chain }
    let reason = innerOf.get(id)
    if (reason === undefined) {
      const first = inner(called.doc).find((p) => p.severity === 'error')
      reason = first ? first.message : null
      innerOf.set(id, reason)
    }
    if (reason !== null) return { code: 'SUBFLOW_FAILED', chain, reason }
    for (const { flowId } of calledFlows(called.doc, registry)) {
      if (chain.includes(flowId)) return { code: 'SUBFLOW_RECURSION', chain: [...chain, flowId] }
      const found = walk([...chain, flowId])
      if (found) return found
    }
    passedAt.set(id, chain.length)
    return null
  }
  const problems: Problem[] = []
  for (const { nodeId, flowId } of calledFlows(flow, registry)) {
    const found =
      flowId === top ? { code: 'SUBFLOW_RECURSION' as const, chain: [top, top] } : walk([top, flowId])
    if (found) problems.push(problemOf(flow, flows, nodeId, flowId, found))
  }
  return problems
}

function problemOf(
  flow: FlowDocument,
  flows: FlowLookup,
  nodeId: string,
  flowId: string,
  found: Found,
): Problem {
  const who = nodeLabel(flow, nodeId)
  const chain = chainText(found.chain)
  const missing = found.chain[found.chain.length - 1] as string
  const name = flows.get(flowId)?.doc.metadata.name || flowId
  // The UI words a chain by the flows' names (a browser's flow ids are generated); files and the
  // CLI name flows by id.
  const named = (id: string) =>
    (id === flow.metadata.id ? flow.metadata.name : flows.get(id)?.doc.metadata.name)?.trim() || id
  const params = { nodeId, flow: flowId, chain, names: chainText(found.chain.map(named)) }
  switch (found.code) {
    case 'SUBFLOW_NOT_FOUND':
      return {
        code: found.code,
        severity: 'error',
        nodeId,
        message: `${who}: there is no flow "${missing}" to run as a sub-flow (${chain}).`,
        params: { ...params, missing },
      }
    case 'SUBFLOW_RECURSION':
      return {
        code: found.code,
        severity: 'error',
        nodeId,
        message: `${who}: sub-flows call each other in a circle: ${chain}.`,
        params,
      }
    case 'SUBFLOW_TOO_DEEP':
      return {
        code: found.code,
        severity: 'error',
        nodeId,
        message: `${who}: sub-flows nest more than ${SUBFLOW_MAX_DEPTH} deep: ${chain}.`,
        params: { ...params, max: SUBFLOW_MAX_DEPTH },
      }
    case 'SUBFLOW_FAILED':
      return {
        code: found.code,
        severity: 'error',
        nodeId,
        message: `${who}: the sub-flow "${name}" cannot run (${chain}): ${found.reason}`,
        params: { ...params, reason: found.reason },
      }
  }
}
