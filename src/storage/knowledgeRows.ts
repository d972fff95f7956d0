/**
 * Rows of the knowledge tables (Dexie v4). A base names how its chunks were embedded, so a query
 * is embedded by the same model; chunks carry their document's name, the source a result cites.
 */

/** How a base's chunks get vectors: none (keyword search only), the demo's local vectors, or a provider's model. */
export type KnowledgeEmbedding =
  { kind: 'none' } | { kind: 'demo' } | { kind: 'provider'; providerId: string; model: string }

export interface KnowledgeBaseRow {
  id: string
  name: string
  /** ms since epoch */
  createdAt: number
  /** ms since epoch; changes with every added or removed document (the search index is rebuilt from it). */
  updatedAt: number
  embedding: KnowledgeEmbedding
}

export interface KnowledgeDocumentRow {
  id: string
  baseId: string
  /** The file's name, cited as the source of its chunks. */
  name: string
  /** Size of the dropped file. */
  sizeBytes: number
  chunkCount: number
  /** ms since epoch */
  addedAt: number
}

export interface KnowledgeChunkRow {
  id: string
  baseId: string
  documentId: string
  /** Its place in the document. */
  index: number
  text: string
  source: string
  vector?: Float32Array
}
