/** Validate + migrate every document on load (architecture.md, house rule 10). */
import type { FlowRow } from '../rows.ts'
import { restoreDocument, type RestoreResult } from './document.ts'
import { inferDocSchemaVersion } from './migrations.ts'
import type { NodeLookup } from './nodes.ts'

export * from './document.ts'
export * from './migrations.ts'
export * from './graph.ts'
export {
  restoreConfig,
  unsupportedNode,
  defaultNodeLookup,
  type NodeLookup,
  type ConfigResult,
} from './nodes.ts'
export { isPlainObject, joinPath, type ImportProblem, type KeyedNote } from './schema.ts'
export { NoteLog, type NoteParams } from './noteLog.ts'

/** Restores the document of a stored flow row (lenient: repairs, never drops data). */
export function restoreFlowRow(row: FlowRow, lookup?: NodeLookup): RestoreResult {
  const result = restoreDocument(row.doc, {
    mode: 'lenient',
    schemaVersion: row.schemaVersion ?? inferDocSchemaVersion(row.doc),
    lookup,
    fallback: { id: row.id, name: row.name, updatedAt: row.updatedAt },
  })
  // The row's key is the flow's identity: a document claiming another id would be saved as a copy.
  if (!result.ok || result.doc.metadata.id === row.id) return result
  return {
    ...result,
    doc: { ...result.doc, metadata: { ...result.doc.metadata, id: row.id } },
    notes: [
      ...result.notes,
      `The saved flow named itself ${JSON.stringify(result.doc.metadata.id)}; it keeps its id ${JSON.stringify(row.id)}.`,
    ],
  }
}
