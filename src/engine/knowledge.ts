/**
 * The knowledge port: how a `knowledge` node searches a knowledge base. The browser answers
 * from IndexedDB through its worker, the CLI from the files given with `--knowledge`; the engine
 * only names a base and a query.
 */

/** One chunk a search found. */
export interface KnowledgeHit {
  text: string
  /** The document's name (for the CLI, its path relative to the folder given). */
  source: string
  /** In [0, 1], higher is better; the scale of `minScore`. */
  score: number
}

export interface KnowledgeQuery {
  /** The knowledge base id the node names. */
  base: string
  query: string
  topK: number
  minScore: number
  nodeId: string
  signal: AbortSignal
}

/**
 * Searches knowledge bases. Throws FlowError KNOWLEDGE_BASE_MISSING, with a message saying how
 * to add it on this host, when there is no base with that id.
 */
export interface KnowledgeSearch {
  search(query: KnowledgeQuery): Promise<KnowledgeHit[]>
}
