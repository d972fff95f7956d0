/**
 * Builds the engine's FlowLookup from flow documents: a flow's interface (Input keys, Output
 * nodes and keys) comes from the node roles, which only the catalog knows. The browser builds
 * it from the saved flows, the CLI from the flows its file carries.
 */
import { SUBFLOW_MAX_DEPTH } from '../defaults.ts'
import {
  calledFlows,
  type CalledFlow,
  type FlowDocument,
  type FlowLookup,
  type NodeRegistry,
} from '../engine/index.ts'
import type { NodeCatalog } from './catalog.ts'

/** The keys of a node's `values` record (Input and Output nodes), as stored. */
function valueKeys(config: Readonly<Record<string, unknown>>): string[] {
  const values = config['values']
  return typeof values === 'object' && values !== null && !Array.isArray(values) ? Object.keys(values) : []
}

/** Each key once, in first-seen order. */
function unique(keys: readonly string[]): string[] {
  return [...new Set(keys)]
}

/** `doc`'s interface as a calling node sees it. */
export function describeFlow(doc: FlowDocument, catalog: NodeCatalog): CalledFlow {
  const inputs: string[] = []
  const outputs: string[] = []
  const outputNodeIds: string[] = []
  for (const node of doc.nodes) {
    const role = catalog.role(node.type)
    if (role === 'flowInput') inputs.push(...valueKeys(node.data.config))
    if (role === 'flowOutput') {
      outputNodeIds.push(node.id)
      outputs.push(...valueKeys(node.data.config))
    }
  }
  return { doc, inputKeys: unique(inputs), outputNodeIds, outputKeys: unique(outputs) }
}

/** A lookup over `docs` by flow id (a later document with the same id wins). */
export function createFlowLookup(docs: Iterable<FlowDocument>, catalog: NodeCatalog): FlowLookup {
  const byId = new Map<string, FlowDocument>()
  for (const doc of docs) byId.set(doc.metadata.id, doc)
  const described = new Map<string, CalledFlow>()
  return {
    get: (flowId) => {
      const doc = byId.get(flowId)
      if (!doc) return undefined
      let flow = described.get(flowId)
      if (!flow) described.set(flowId, (flow = describeFlow(doc, catalog)))
      return flow
    },
  }
}

/**
 * Every flow `doc` calls, directly or through others, each once, loaded with `load` (undefined:
 * not there). Levels are followed one past SUBFLOW_MAX_DEPTH, so preflight can tell "too deep"
 * from "missing"; `doc` itself is never loaded (a call back to it is a circle preflight names).
 */
export async function collectCalledFlows(
  doc: FlowDocument,
  registry: NodeRegistry,
  load: (flowId: string) => Promise<FlowDocument | undefined>,
): Promise<FlowDocument[]> {
  const seen = new Set([doc.metadata.id])
  const found: FlowDocument[] = []
  let level = [doc]
  for (let depth = 0; depth <= SUBFLOW_MAX_DEPTH && level.length > 0; depth++) {
    const next: FlowDocument[] = []
    for (const flow of level) {
      for (const { flowId } of calledFlows(flow, registry)) {
        if (seen.has(flowId)) continue
        seen.add(flowId)
        const loaded = await load(flowId)
        if (loaded) next.push(loaded)
      }
    }
    found.push(...next)
    level = next
  }
  return found
}

/**
 * `doc` with every call to a flow id in `renamed` pointing at its new id (an imported flow stored
 * as a copy). Nodes that call no renamed flow are kept as they are.
 */
export function retargetCalls(
  doc: FlowDocument,
  renamed: ReadonlyMap<string, string>,
  catalog: NodeCatalog,
): FlowDocument {
  if (renamed.size === 0) return doc
  const nodes = doc.nodes.map((node) => {
    const definition = catalog.get(node.type)
    const parsed = definition?.retargetFlow ? definition.schema.safeParse(node.data.config) : undefined
    const called = parsed?.success ? definition?.engine.callsFlow?.(parsed.data) : undefined
    const to = called === undefined ? undefined : renamed.get(called)
    if (!definition?.retargetFlow || !parsed?.success || to === undefined) return node
    const config = definition.retargetFlow(parsed.data, to) as Record<string, unknown>
    return { ...node, data: { ...node.data, config } }
  })
  return { ...doc, nodes }
}
