/**
 * v5 → v6: a database made at the v5 schema (its stores copied here as they shipped, so a later
 * edit to db.ts cannot move them) opens with the app's WardflowDb: every row is still there and
 * v6's change is applied (the approvals table, indexed by runId only).
 */
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { DB_VERSION, openWardflowDb } from '../../src/storage/db.ts'
import { listRuns } from '../../src/storage/repositories/runs.ts'
import { loadFlow } from '../../src/storage/repositories/flows.ts'
import {
  approvalRowId,
  listApprovals,
  putApproval,
  removeApproval,
  removeRunApprovals,
  type ApprovalRow,
} from '../../src/storage/repositories/approvals.ts'
import { freshDb, sampleFlow, sampleRun, track } from './support.ts'

/** The stores of versions 1 to 5, as src/storage/db.ts declared them when v5 shipped. */
function declareV5(db: Dexie): void {
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
  db.version(5).stores({ batchRuns: 'id, flowId' })
}

function row(runId: string, callId: string, askedAt: number): ApprovalRow {
  return {
    id: approvalRowId(runId, 'agent', callId),
    runId,
    flowId: 'f1',
    nodeId: 'agent',
    fromNodeId: 'agent',
    callId,
    tool: 'query_orders',
    args: { status: 'pending', customerId: 'C-1042' },
    askedAt,
    timeoutMs: 300_000,
  }
}

describe('WardflowDb v5 → v6', () => {
  it('keeps flows, runs and batch rows and adds approvals indexed by runId', async () => {
    const name = `t-${crypto.randomUUID()}`
    const v5 = new Dexie(name)
    declareV5(v5)
    await v5.open()
    expect(v5.verno).toBe(5)
    expect(v5.tables.map((t) => t.name)).not.toContain('approvals')
    const doc = sampleFlow('f1', 'Made at v5')
    await v5.table('flows').put({
      id: 'f1',
      name: 'Made at v5',
      updatedAt: doc.metadata.updatedAt,
      doc,
      nodeCount: doc.nodes.length,
    })
    await v5.table('runs').bulkPut([sampleRun('f1', 1000), sampleRun('f1', 2000)])
    await v5.table('batchRuns').put({ id: 'b1', flowId: 'f1' })
    v5.close()

    const db = track(await openWardflowDb(name))
    expect(DB_VERSION).toBe(6)
    expect(db.verno).toBe(6)
    expect((await loadFlow(db, 'f1'))?.doc).toEqual(doc)
    expect((await listRuns(db, 'f1')).map((r) => r.startedAt)).toEqual([2000, 1000])
    expect(await db.batchRuns.get('b1')).toEqual({ id: 'b1', flowId: 'f1' })

    expect(db.approvals.schema.primKey.name).toBe('id')
    expect(db.approvals.schema.indexes.map((i) => i.name)).toEqual(['runId'])
    expect(await listApprovals(db)).toEqual([])
  })
})

describe('approvals repository', () => {
  it('lists valid rows oldest first, removes one, and removes a run’s rows', async () => {
    const db = await freshDb()
    await putApproval(db, row('r2', 'c1', 3000))
    await putApproval(db, row('r1', 'c1', 1000))
    await putApproval(db, row('r1', 'c2', 2000))
    // A row some other build left that does not fit the schema is skipped, not trusted.
    await db.approvals.put({ id: 'bad', runId: 'r3' } as unknown as ApprovalRow)
    expect((await listApprovals(db)).map((r) => r.id)).toEqual([
      approvalRowId('r1', 'agent', 'c1'),
      approvalRowId('r1', 'agent', 'c2'),
      approvalRowId('r2', 'agent', 'c1'),
    ])
    await removeApproval(db, approvalRowId('r1', 'agent', 'c1'))
    expect(await removeRunApprovals(db, 'r1')).toBe(1)
    expect((await listApprovals(db)).map((r) => [r.runId, r.callId, r.args])).toEqual([
      ['r2', 'c1', { status: 'pending', customerId: 'C-1042' }],
    ])
  })
})
