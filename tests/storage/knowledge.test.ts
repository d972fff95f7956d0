import { describe, expect, it, vi } from 'vitest'
import { openWardflowDb, WardflowDb, DB_VERSION } from '../../src/storage/db.ts'
import {
  addKnowledgeDocument,
  createKnowledgeBase,
  getKnowledgeBase,
  listKnowledgeBases,
  listKnowledgeDocuments,
  loadKnowledgeChunks,
  removeKnowledgeBase,
  removeKnowledgeDocument,
} from '../../src/storage/repositories/knowledge.ts'
import { listFlows } from '../../src/storage/repositories/flows.ts'
import { FlowError } from '../../src/engine/index.ts'
import { freshDb, sampleFlow, track } from './support.ts'

describe('knowledge storage', () => {
  it('keeps a base of 10,000 chunks with their vectors across a reload', async () => {
    const name = `t-${crypto.randomUUID()}`
    const db = track(await openWardflowDb(name))
    await createKnowledgeBase(db, { id: 'kb_big', name: 'Big', embedding: { kind: 'demo' }, now: 1 })
    for (let d = 0; d < 10; d += 1) {
      const chunks = Array.from({ length: 1000 }, (_, i) => ({
        text: `document ${d} chunk ${i}`,
        vector: Float32Array.from([d, i, 1]),
      }))
      await addKnowledgeDocument(
        db,
        { id: `doc${d}`, baseId: 'kb_big', name: `d${d}.md`, sizeBytes: 1000, addedAt: 2 + d },
        chunks,
      )
    }
    db.close()

    const reopened = track(await openWardflowDb(name))
    const chunks = await loadKnowledgeChunks(reopened, 'kb_big')
    expect(chunks.length).toBe(10_000)
    const sample = chunks.find((c) => c.id === 'doc7:321')
    expect(sample).toMatchObject({ text: 'document 7 chunk 321', source: 'd7.md', index: 321 })
    expect(Array.from(sample!.vector!)).toEqual([7, 321, 1])
    const [summary] = await listKnowledgeBases(reopened)
    expect(summary).toMatchObject({
      id: 'kb_big',
      documentCount: 10,
      chunkCount: 10_000,
      sizeBytes: 10_000,
      updatedAt: 11,
    })
  })

  it('upgrades a v3 database to v4 and loses nothing', async () => {
    const name = `t-${crypto.randomUUID()}`
    const v3 = new WardflowDb(name, { upToVersion: 3 })
    await v3.open()
    const doc = sampleFlow('f1', 'Kept')
    await v3
      .table('flows')
      .put({ id: 'f1', name: 'Kept', updatedAt: doc.metadata.updatedAt, doc, nodeCount: 4 })
    await v3.table('caches').put({ id: 'c', kind: 'models', createdAt: 1, value: ['m'] })
    v3.close()
    const db = track(await openWardflowDb(name))
    expect(db.verno).toBe(DB_VERSION)
    expect((await listFlows(db)).map((f) => f.id)).toEqual(['f1'])
    expect(await db.caches.get('c')).toMatchObject({ value: ['m'] })
    expect(await listKnowledgeBases(db)).toEqual([])
  })

  it('reports a full disk as STORAGE_QUOTA and leaves no half document behind', async () => {
    const db = await freshDb()
    await createKnowledgeBase(db, { id: 'kb', name: 'KB', embedding: { kind: 'none' }, now: 1 })
    vi.spyOn(db.knowledgeChunks, 'bulkPut').mockRejectedValueOnce(
      new DOMException('full', 'QuotaExceededError'),
    )
    const failure = await addKnowledgeDocument(
      db,
      { id: 'doc', baseId: 'kb', name: 'a.md', sizeBytes: 5, addedAt: 2 },
      [{ text: 'hello' }],
    ).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(FlowError)
    expect((failure as FlowError).code).toBe('STORAGE_QUOTA')
    expect(await listKnowledgeDocuments(db, 'kb')).toEqual([])
    expect(await loadKnowledgeChunks(db, 'kb')).toEqual([])
  })

  it('deletes a document with its chunks, and a base with everything in it', async () => {
    const db = await freshDb()
    await createKnowledgeBase(db, { id: 'kb', name: 'KB', embedding: { kind: 'none' }, now: 1 })
    await createKnowledgeBase(db, { id: 'other', name: 'Other', embedding: { kind: 'none' }, now: 1 })
    await addKnowledgeDocument(db, { id: 'a', baseId: 'kb', name: 'a.md', sizeBytes: 5, addedAt: 2 }, [
      { text: 'a' },
      { text: 'b' },
    ])
    await addKnowledgeDocument(db, { id: 'b', baseId: 'kb', name: 'b.md', sizeBytes: 5, addedAt: 3 }, [
      { text: 'c' },
    ])
    await addKnowledgeDocument(db, { id: 'c', baseId: 'other', name: 'c.md', sizeBytes: 5, addedAt: 3 }, [
      { text: 'd' },
    ])
    await removeKnowledgeDocument(db, 'a', 9)
    expect((await loadKnowledgeChunks(db, 'kb')).map((c) => c.text)).toEqual(['c'])
    expect((await getKnowledgeBase(db, 'kb'))?.updatedAt).toBe(9)
    await removeKnowledgeBase(db, 'kb')
    expect(await getKnowledgeBase(db, 'kb')).toBeUndefined()
    expect(await loadKnowledgeChunks(db, 'kb')).toEqual([])
    expect((await loadKnowledgeChunks(db, 'other')).length).toBe(1)
  })
})
