/**
 * The Knowledge screen's services: bases and documents in IndexedDB, documents read as text on
 * the page (PDF through pdf.js, loaded with the first PDF) and cut into chunks in the knowledge
 * worker. A file that cannot be read is reported by name with why; a storage failure (a full
 * disk) rejects with its FlowError, so the screen says it and nothing is half stored.
 */
import {
  KNOWLEDGE_CHUNK_OVERLAP_CHARS,
  KNOWLEDGE_CHUNK_SIZE_CHARS,
  KNOWLEDGE_DOCUMENT_MAX_BYTES,
} from '../../defaults.ts'
import { FlowError, type FetchLike } from '../../engine/index.ts'
import { embedTexts } from '../../knowledge/embeddings.ts'
import { documentKind, documentText } from '../../knowledge/extract.ts'
import type { KnowledgeWorkerClient } from '../../knowledge/workerClient.ts'
import type { WardflowDb } from '../../storage/db.ts'
import type { KnowledgeEmbedding } from '../../storage/knowledgeRows.ts'
import {
  addKnowledgeDocument,
  createKnowledgeBase,
  getKnowledgeBase,
  listKnowledgeBases,
  listKnowledgeDocuments,
  removeKnowledgeBase,
  removeKnowledgeDocument,
} from '../../storage/repositories/knowledge.ts'
import type { KnowledgeFileOutcome, KnowledgeService } from '../../ui/services.ts'
import type { EmbedderFor } from './embedders.ts'

export interface KnowledgeServiceDeps {
  db(): Promise<WardflowDb>
  worker(): KnowledgeWorkerClient
  /** The text of a PDF (pdf.js in the browser). */
  pdfText(data: Uint8Array): Promise<string>
  now(): number
  newId(): string
  open(): void
  /** The embedder of a base made with a provider's model (embedders.ts). */
  embedderFor: EmbedderFor
  /** The page's fetch, for a provider's embeddings. */
  fetch: FetchLike
}

/** Ids a knowledge node can name: the same rule as node ids. */
export const KNOWLEDGE_BASE_ID = /^[A-Za-z0-9_-]{1,64}$/

export function createKnowledgeService(deps: KnowledgeServiceDeps): KnowledgeService {
  async function readFile(file: File): Promise<{ text: string } | { reasonKey: string; detail?: string }> {
    const kind = documentKind(file.name, file.type)
    if (kind === undefined) return { reasonKey: 'refused.type' }
    if (file.size > KNOWLEDGE_DOCUMENT_MAX_BYTES)
      return { reasonKey: 'refused.tooLarge', detail: `${KNOWLEDGE_DOCUMENT_MAX_BYTES / 1024 / 1024} MB` }
    try {
      const text =
        kind === 'pdf'
          ? await deps.pdfText(new Uint8Array(await file.arrayBuffer()))
          : documentText(kind, await file.text())
      return text.trim() === '' ? { reasonKey: 'refused.empty' } : { text }
    } catch (error) {
      return {
        reasonKey: 'refused.unreadable',
        detail: error instanceof Error ? error.message : String(error),
      }
    }
  }

  return {
    open: deps.open,
    async listBases() {
      return (await listKnowledgeBases(await deps.db())).map((base) => ({
        id: base.id,
        name: base.name,
        vectors: base.embedding.kind !== 'none',
        embedding: base.embedding,
        documentCount: base.documentCount,
        chunkCount: base.chunkCount,
        sizeBytes: base.sizeBytes,
      }))
    },
    async listDocuments(baseId) {
      return (await listKnowledgeDocuments(await deps.db(), baseId)).map(
        ({ id, name, sizeBytes, chunkCount }) => ({
          id,
          name,
          sizeBytes,
          chunkCount,
        }),
      )
    },
    async createBase({ id, name, embedding }) {
      if (!KNOWLEDGE_BASE_ID.test(id))
        throw new FlowError('INVALID_CONFIG', `"${id}" is not a usable base id.`)
      const db = await deps.db()
      if ((await getKnowledgeBase(db, id)) !== undefined)
        throw new FlowError('INVALID_CONFIG', `A knowledge base "${id}" already exists.`, {
          details: { base: id },
        })
      await createKnowledgeBase(db, {
        id,
        name: name.trim() === '' ? id : name.trim(),
        embedding: storedEmbedding(embedding),
        now: deps.now(),
      })
    },
    async addFiles(baseId, files) {
      const db = await deps.db()
      const base = await getKnowledgeBase(db, baseId)
      if (base === undefined)
        throw new FlowError('KNOWLEDGE_BASE_MISSING', `There is no knowledge base "${baseId}".`)
      // A provider's embedder is resolved once per drop (the key unlocked once, if locked).
      const embedder =
        base.embedding.kind === 'provider' ? await deps.embedderFor(base.embedding, baseId) : undefined
      const outcomes: KnowledgeFileOutcome[] = []
      for (const file of files) {
        const read = await readFile(file)
        if (!('text' in read)) {
          outcomes.push({ name: file.name, ok: false, ...read })
          continue
        }
        const chunks = await deps.worker().chunk(read.text, {
          sizeChars: KNOWLEDGE_CHUNK_SIZE_CHARS,
          overlapChars: KNOWLEDGE_CHUNK_OVERLAP_CHARS,
          demoVectors: base.embedding.kind === 'demo',
        })
        if (embedder !== undefined && chunks.length > 0) {
          // The page keeps the network (the worker only computes): the provider embeds here.
          let vectors: Float32Array[]
          try {
            vectors = await embedTexts(
              embedder,
              chunks.map((c) => c.text),
              deps.fetch,
            )
          } catch (error) {
            outcomes.push({
              name: file.name,
              ok: false,
              reasonKey: 'refused.embeddings',
              detail: error instanceof Error ? error.message : String(error),
            })
            continue
          }
          chunks.forEach((chunk, i) => (chunk.vector = vectors[i]))
        }
        // A storage failure stops the drop here: later files would fail the same way.
        const row = await addKnowledgeDocument(
          db,
          { id: deps.newId(), baseId, name: file.name, sizeBytes: file.size, addedAt: deps.now() },
          chunks,
        )
        outcomes.push({ name: file.name, ok: true, chunkCount: row.chunkCount })
      }
      return outcomes
    },
    async removeDocument(documentId) {
      await removeKnowledgeDocument(await deps.db(), documentId, deps.now())
    },
    async removeBase(baseId) {
      await removeKnowledgeBase(await deps.db(), baseId)
      await deps.worker().drop(baseId)
    },
  }
}

/** The stored form of a base's embedding choice: a provider's model needs both names. */
function storedEmbedding(choice: KnowledgeEmbedding): KnowledgeEmbedding {
  if (choice.kind !== 'provider') return choice
  const model = choice.model.trim()
  if (choice.providerId === '' || model === '')
    throw new FlowError(
      'INVALID_CONFIG',
      'Vector search with a provider needs the provider and its embeddings model.',
    )
  return { kind: 'provider', providerId: choice.providerId, model }
}
