/**
 * Knowledge bases in IndexedDB: bases, their documents and chunks. A document and its chunks are
 * written in one transaction (a quota error leaves no half document behind), in batches of
 * KNOWLEDGE_STORE_BATCH_CHUNKS; every failure is a STORAGE_* FlowError (guard), never silent.
 * Loaded rows are checked before use: the database is a boundary like any file.
 */
import { z } from 'zod'
import { KNOWLEDGE_STORE_BATCH_CHUNKS } from '../../defaults.ts'
import type { WardflowDb } from '../db.ts'
import { guard } from '../errors.ts'
import type {
  KnowledgeBaseRow,
  KnowledgeChunkRow,
  KnowledgeDocumentRow,
  KnowledgeEmbedding,
} from '../knowledgeRows.ts'

const embeddingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('demo') }),
  z.object({ kind: z.literal('provider'), providerId: z.string(), model: z.string() }),
])

const baseRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  embedding: embeddingSchema.catch({ kind: 'none' }),
})

const documentRowSchema = z.object({
  id: z.string(),
  baseId: z.string(),
  name: z.string(),
  sizeBytes: z.number(),
  chunkCount: z.number(),
  addedAt: z.number(),
})

/** A base with what the Knowledge screen lists. */
export interface KnowledgeBaseSummary extends KnowledgeBaseRow {
  documentCount: number
  chunkCount: number
  sizeBytes: number
}

export function createKnowledgeBase(
  db: WardflowDb,
  base: { id: string; name: string; embedding: KnowledgeEmbedding; now: number },
): Promise<KnowledgeBaseRow> {
  return guard('creating a knowledge base', async () => {
    const row: KnowledgeBaseRow = {
      id: base.id,
      name: base.name,
      createdAt: base.now,
      updatedAt: base.now,
      embedding: base.embedding,
    }
    await db.knowledgeBases.add(row)
    return row
  })
}

export async function getKnowledgeBase(db: WardflowDb, id: string): Promise<KnowledgeBaseRow | undefined> {
  const raw: unknown = await guard('reading a knowledge base', () => db.knowledgeBases.get(id))
  const parsed = baseRowSchema.safeParse(raw)
  return parsed.success ? parsed.data : undefined
}

export async function listKnowledgeBases(db: WardflowDb): Promise<KnowledgeBaseSummary[]> {
  return guard('listing knowledge bases', async () => {
    const bases = (await db.knowledgeBases.orderBy('createdAt').toArray()).flatMap((raw: unknown) => {
      const parsed = baseRowSchema.safeParse(raw)
      return parsed.success ? [parsed.data] : []
    })
    const documents = await listAllDocuments(db)
    return bases.map((base) => {
      const own = documents.filter((d) => d.baseId === base.id)
      return {
        ...base,
        documentCount: own.length,
        chunkCount: own.reduce((sum, d) => sum + d.chunkCount, 0),
        sizeBytes: own.reduce((sum, d) => sum + d.sizeBytes, 0),
      }
    })
  })
}

async function listAllDocuments(db: WardflowDb): Promise<KnowledgeDocumentRow[]> {
  return (await db.knowledgeDocuments.orderBy('addedAt').toArray()).flatMap((raw: unknown) => {
    const parsed = documentRowSchema.safeParse(raw)
    return parsed.success ? [parsed.data] : []
  })
}

export function listKnowledgeDocuments(db: WardflowDb, baseId: string): Promise<KnowledgeDocumentRow[]> {
  return guard('listing documents', async () =>
    (await listAllDocuments(db)).filter((d) => d.baseId === baseId),
  )
}

/** A document's chunks as the indexer made them (ids, base and document are filled in here). */
export interface NewChunk {
  text: string
  vector?: Float32Array
}

/** Stores a document with its chunks; the base's `updatedAt` moves so its search index is rebuilt. */
export function addKnowledgeDocument(
  db: WardflowDb,
  document: Omit<KnowledgeDocumentRow, 'chunkCount'>,
  chunks: readonly NewChunk[],
): Promise<KnowledgeDocumentRow> {
  return guard(`storing the document ${document.name}`, async () => {
    const row: KnowledgeDocumentRow = { ...document, chunkCount: chunks.length }
    await db.transaction('rw', [db.knowledgeBases, db.knowledgeDocuments, db.knowledgeChunks], async () => {
      await db.knowledgeDocuments.put(row)
      for (let start = 0; start < chunks.length; start += KNOWLEDGE_STORE_BATCH_CHUNKS) {
        const rows = chunks
          .slice(start, start + KNOWLEDGE_STORE_BATCH_CHUNKS)
          .map((chunk, offset): KnowledgeChunkRow => ({
            id: `${document.id}:${start + offset}`,
            baseId: document.baseId,
            documentId: document.id,
            index: start + offset,
            text: chunk.text,
            source: document.name,
            ...(chunk.vector === undefined ? {} : { vector: chunk.vector }),
          }))
        await db.knowledgeChunks.bulkPut(rows)
      }
      await db.knowledgeBases.update(document.baseId, { updatedAt: document.addedAt })
    })
    return row
  })
}

export function removeKnowledgeDocument(db: WardflowDb, documentId: string, now: number): Promise<void> {
  return guard('deleting a document', async () => {
    await db.transaction('rw', [db.knowledgeBases, db.knowledgeDocuments, db.knowledgeChunks], async () => {
      const document = await db.knowledgeDocuments.get(documentId)
      await db.knowledgeChunks.where('documentId').equals(documentId).delete()
      await db.knowledgeDocuments.delete(documentId)
      if (document !== undefined) await db.knowledgeBases.update(document.baseId, { updatedAt: now })
    })
  })
}

export function removeKnowledgeBase(db: WardflowDb, baseId: string): Promise<void> {
  return guard('deleting a knowledge base', async () => {
    await db.transaction('rw', [db.knowledgeBases, db.knowledgeDocuments, db.knowledgeChunks], async () => {
      await db.knowledgeChunks.where('baseId').equals(baseId).delete()
      await db.knowledgeDocuments.where('baseId').equals(baseId).delete()
      await db.knowledgeBases.delete(baseId)
    })
  })
}

/** A base's chunks in document order, rows that are not chunks left out. */
export function loadKnowledgeChunks(db: WardflowDb, baseId: string): Promise<KnowledgeChunkRow[]> {
  return guard('reading a knowledge base', async () => {
    const rows = await db.knowledgeChunks.where('baseId').equals(baseId).toArray()
    // 10,000 rows: a plain shape check, not a schema parse per row.
    return rows.filter(
      (row: KnowledgeChunkRow) =>
        typeof row.text === 'string' &&
        typeof row.source === 'string' &&
        (row.vector === undefined || row.vector instanceof Float32Array),
    )
  })
}
