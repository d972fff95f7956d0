/**
 * Readable node ids (`llm_1`, `agent_2`): people type them into `{{nodeId.path}}` templates, so
 * they must be short, stable and match NODE_ID_PATTERN.
 */
import { NODE_ID_PATTERN } from '../defaults.ts'

/** A type name reduced to the characters a node id may hold. */
function idStem(type: string): string {
  const stem = type.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 48)
  return stem === '' ? 'node' : stem
}

/** The first `${type}_${n}` not in `taken`; adds it to `taken` so batches stay unique. */
export function nextNodeId(type: string, taken: Set<string>): string {
  const stem = idStem(type)
  let n = 1
  while (taken.has(`${stem}_${n}`)) n += 1
  const id = `${stem}_${n}`
  taken.add(id)
  return id
}

/** Edge ids only need to be unique; they carry their endpoints to stay readable in exports. */
export function nextEdgeId(source: string, target: string, taken: Set<string>): string {
  const base = `e_${source}_${target}`
  let id = base
  let n = 2
  while (taken.has(id)) {
    id = `${base}_${n}`
    n += 1
  }
  taken.add(id)
  return id
}

export function isValidNodeId(id: string): boolean {
  return NODE_ID_PATTERN.test(id)
}

/** A fresh flow id: random, URL-safe. */
export function newFlowId(): string {
  return `flow_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`
}
