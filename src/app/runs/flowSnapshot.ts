/**
 * What the files made from a saved run (trace, cassette) read of the flow the record kept: the
 * snapshot is stored as it was, so it is read as unknown, field by field.
 */
export interface SnapshotNode {
  type: string
  /** The provider id the node's config names, when it names one. */
  provider?: string
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

/** The nodes (type, named provider) by id and the name of a record's flow snapshot. */
export function readFlowSnapshot(flow: unknown): { nodes: Map<string, SnapshotNode>; name?: string } {
  const nodes = new Map<string, SnapshotNode>()
  if (!isObject(flow)) return { nodes }
  for (const node of Array.isArray(flow.nodes) ? flow.nodes : []) {
    if (!isObject(node) || typeof node.id !== 'string' || typeof node.type !== 'string') continue
    const data = isObject(node.data) ? node.data : {}
    const config = isObject(data.config) ? data.config : {}
    const provider = typeof config.provider === 'string' ? config.provider.trim() : undefined
    nodes.set(node.id, { type: node.type, ...(provider === undefined ? {} : { provider }) })
  }
  const meta = isObject(flow.metadata) ? flow.metadata : {}
  return typeof meta.name === 'string' && meta.name !== '' ? { nodes, name: meta.name } : { nodes }
}
