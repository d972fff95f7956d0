/**
 * What drawing a connection fills in. A person who wires Input -> LLM -> Output expects the LLM
 * to ask the input's question and the Output to show the reply, not to find out after a run that
 * an edge only sets the order. So when a connection is drawn, the target's field that reads
 * upstream text gets a `{{source.field}}` reference to the source's main output, but only while
 * that field is still empty: nothing a person typed is ever replaced. The store applies it in
 * the same undo step as the edge.
 *
 * Each type says its part in its definition (`wiring.mainOutput`, `wiring.fill`); this file only
 * joins the two ends.
 */
import type { FlowNode } from '../engine/index.ts'
import type { NodeCatalog } from './catalog.ts'
import { nodeCatalog } from './registry.ts'

type Config = Readonly<Record<string, unknown>>

/** The output field a downstream node most likely wants from a node of `type`. */
export function mainOutputField(type: string, config: Config, catalog: NodeCatalog = nodeCatalog) {
  return catalog.mainOutput({ type, data: { config } })
}

/** The target's config after a connection from `source` is drawn; null when nothing changes. */
export function configAfterConnect(
  source: FlowNode,
  target: FlowNode,
  catalog: NodeCatalog = nodeCatalog,
): Config | null {
  const field = catalog.mainOutput(source)
  if (field === undefined || !/^[A-Za-z_$][\w$]*$/.test(field)) return null
  return catalog.fill(target, `{{${source.id}.${field}}}`)
}
