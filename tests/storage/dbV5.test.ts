/**
 * v4 → v5: a database made at the v4 schema (its stores copied here as they shipped, so a later
 * edit to db.ts cannot move them) opens with the app's WardflowDb: every row is still there and
 * v5's change is applied (the batchRuns table, indexed by flowId only).
 */
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { DB_VERSION, openWardflowDb } from '../../src/storage/db.ts'
import { listRuns } from '../../src/storage/repositories/runs.ts'
import { loadFlow } from '../../src/storage/repositories/flows.ts'
import { sampleFlow, sampleRun, track } from './support.ts'

/** The stores of versions 1 to 4, as src/storage/db.ts declared them when v4 shipped. */
function declareV4(db: Dexie): void {
  db.version(1).stores({ flows: 'id, name, updatedAt', runs: 'id, flowId, startedAt', settings: 'id' })
  db.version(2).stores({
    runs: 'id, flowId, startedAt, [flowId+startedAt]',
    secrets: 'id',
    exports: 'id, kind, createdAt',
  })
  db.version(3).stores({ caches: 'id, kind, createdAt' })
  db.version(4).stores({
    knowledgeBases: 'id, name, createdAt',
    knowledgeDocuments: 'id, baseId, addedAt',
    knowledgeChunks: 'id, baseId, documentId',
  })
}

describe('WardflowDb v4 → v5', () => {
  it('keeps flows, runs and knowledge rows and adds batchRuns indexed by flowId', async () => {
    const name = `t-${crypto.randomUUID()}`
    const v4 = new Dexie(name)
    declareV4(v4)
    await v4.open()
    expect(v4.verno).toBe(4)
    expect(v4.tables.map((t) => t.name)).not.toContain('batchRuns')
    const doc = sampleFlow('f1', 'Made at v4')
    await v4.table('flows').put({
      id: 'f1',
      name: 'Made at v4',
      updatedAt: doc.metadata.updatedAt,
      doc,
      nodeCount: doc.nodes.length,
    })
    await v4.table('runs').bulkPut([sampleRun('f1', 1000), sampleRun('f1', 2000)])
    await v4.table('knowledgeBases').put({ id: 'kb1', name: 'Docs', createdAt: 5 })
    v4.close()

    // Up to v5 only: this test is about v5's step (dbV6.test.ts takes the next one).
    const db = track(await openWardflowDb(name, { upToVersion: 5 }))
    expect(DB_VERSION).toBeGreaterThanOrEqual(5)
    expect(db.verno).toBe(5)
    expect((await loadFlow(db, 'f1'))?.doc).toEqual(doc)
    expect((await listRuns(db, 'f1')).map((r) => r.startedAt)).toEqual([2000, 1000])
    expect(await db.knowledgeBases.get('kb1')).toEqual({ id: 'kb1', name: 'Docs', createdAt: 5 })

    // v5's change: the new table, its primary key and only the flowId index (no [flowId+row]).
    expect(db.batchRuns.schema.primKey.name).toBe('id')
    expect(db.batchRuns.schema.indexes.map((i) => i.name)).toEqual(['flowId'])
    await db.table('batchRuns').bulkPut([
      { id: 'b1', flowId: 'f1' },
      { id: 'b2', flowId: 'f2' },
    ])
    expect((await db.batchRuns.where('flowId').equals('f1').toArray()).map((r) => r.id)).toEqual(['b1'])
  })
})
