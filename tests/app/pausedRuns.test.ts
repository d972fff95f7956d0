/**
 * Paused runs across a reload (app/runs/pausedRuns.ts, issue 21): an asked call's row is written
 * in event order and removed once decided or when the run ends; after a reload the open flow's
 * interrupted run shows again with its card, and the answer continues that run from the paused
 * node with the decision recorded for the same call, a late one counting as a timeout.
 */
import { describe, expect, it } from 'vitest'
import {
  createPausedRuns,
  trackApprovals,
  type ApprovalsRepository,
  type PausedRunsDeps,
} from '../../src/app/runs/pausedRuns.ts'
import type { RunsRepository } from '../../src/app/runs/runHistory.ts'
import type { RecordedApproval, RunEvent } from '../../src/engine/run.ts'
import { approvalRowId, type ApprovalRow } from '../../src/storage/repositories/approvals.ts'
import type { RunRecord } from '../../src/storage/rows.ts'
import { createApprovalStore, pendingKey } from '../../src/store/approvalStore.ts'
import { createRunStore, installRunReducer } from '../../src/store/runStore.ts'
import * as reducer from '../../src/store/runStoreReducer.ts'
import type { FromHereRequest } from '../../src/app/runs/reuseOptions.ts'

installRunReducer(reducer)

function memoryApprovals(): ApprovalsRepository & { rows: Map<string, ApprovalRow>; log: string[] } {
  const rows = new Map<string, ApprovalRow>()
  const log: string[] = []
  return {
    rows,
    log,
    put: async (row) => {
      log.push(`put ${row.callId}`)
      rows.set(row.id, row)
    },
    remove: async (id) => {
      log.push(`remove ${id.split('\u0000').at(-1)}`)
      rows.delete(id)
    },
    removeRun: async (runId) => {
      log.push(`removeRun ${runId}`)
      for (const [id, row] of rows) if (row.runId === runId) rows.delete(id)
    },
    list: async () => [...rows.values()].sort((a, b) => a.askedAt - b.askedAt),
  }
}

const at = (n: number) => ({ runId: 'run_1', at: 1_000 + n })
const PAUSED: RunEvent[] = [
  { type: 'runStart', flowId: 'f1', nodeIds: ['question', 'agent', 'answer'], ...at(0) },
  { type: 'nodeStart', nodeId: 'question', inputs: {}, ...at(1) },
  {
    type: 'nodeFinish',
    nodeId: 'question',
    status: 'success',
    output: { question: 'q' },
    durationMs: 1,
    ...at(2),
  },
  { type: 'nodeStart', nodeId: 'agent', inputs: {}, ...at(3) },
  { type: 'nodeChunk', nodeId: 'agent', text: '→ query_orders', channel: 'log', ...at(4) },
  {
    type: 'approvalRequest',
    nodeId: 'agent',
    callId: 'call_1',
    tool: 'query_orders',
    args: { status: 'pending' },
    ...at(5),
  },
]

function record(status: RunRecord['status'] = 'interrupted'): RunRecord {
  return {
    id: 'run_1',
    flowId: 'f1',
    startedAt: 1_000,
    finishedAt: 1_005,
    status,
    inputs: {},
    outputs: {},
    events: PAUSED,
    usage: { prompt: 0, completion: 0, total: 0, estimated: false },
    timings: {},
  }
}

function repository(records: RunRecord[]): RunsRepository {
  return {
    save: async () => undefined,
    list: async () => records,
    get: async (id) => records.find((r) => r.id === id),
  }
}

function setup(records: RunRecord[], now = 2_000) {
  const approvals = memoryApprovals()
  const runs = createRunStore()
  const store = createApprovalStore()
  const resumed: Array<{ from: FromHereRequest; recorded: RecordedApproval }> = []
  const deps: PausedRunsDeps = {
    approvals,
    repository: repository(records),
    runs,
    store,
    openFlowId: () => 'f1',
    isLive: () => false,
    reduce: {},
    now: () => now,
    resume: (from, recorded) => {
      resumed.push({ from, recorded })
      return true
    },
    showError: () => undefined,
  }
  return { approvals, runs, store, resumed, paused: createPausedRuns(deps), deps }
}

/** The question of call_1 as the card answers it. */
const CALL_1 = pendingKey({ runId: 'run_1', nodeId: 'agent', callId: 'call_1' })

const row = (patch: Partial<ApprovalRow> = {}): ApprovalRow => ({
  id: approvalRowId('run_1', 'agent', 'call_1'),
  runId: 'run_1',
  flowId: 'f1',
  nodeId: 'agent',
  fromNodeId: 'agent',
  callId: 'call_1',
  tool: 'query_orders',
  args: { status: 'pending' },
  askedAt: 1_005,
  timeoutMs: 60_000,
  ...patch,
})

describe('trackApprovals', () => {
  it('writes the question, removes it once decided, and drops the run’s rows at its end', async () => {
    const approvals = memoryApprovals()
    const track = trackApprovals(approvals, 'run_1', 'f1', 60_000)
    track.seen(PAUSED.at(-1) as RunEvent)
    await Promise.resolve()
    track.seen({
      type: 'approvalDecision',
      nodeId: 'agent',
      callId: 'call_1',
      decision: 'approved',
      by: 'user',
      ...at(9),
    })
    await track.end()
    expect(approvals.log).toEqual(['put call_1', 'remove call_1', 'removeRun run_1'])
  })

  it('keeps what a reload needs: where to continue from, the ask time and the timeout', async () => {
    const approvals = memoryApprovals()
    const track = trackApprovals(approvals, 'run_1', 'f1', 60_000)
    // Inside a sub-flow node `sub`: the continued run starts from the node on the canvas.
    track.seen({ ...(PAUSED.at(-1) as RunEvent), nesting: [{ nodeId: 'sub', kind: 'subflow' }] })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect([...approvals.rows.values()]).toEqual([row({ fromNodeId: 'sub' })])
  })
})

describe('createPausedRuns', () => {
  it('shows the open flow’s paused run with its card; approving continues it from the node', async () => {
    const { approvals, runs, store, resumed, paused } = setup([record()])
    await approvals.put(row())
    await paused.restore()
    expect(runs.getState().run?.status).toBe('interrupted')
    expect(runs.getState().nodes['question']?.status).toBe('success')
    // As it stood before the reload: the Agent waits on its question.
    expect(runs.getState().nodes['agent']?.status).toBe('running')
    const [pending] = store.store.getState().pending
    expect(pending).toMatchObject({ callId: 'call_1', restored: { askedAt: 1_005, timeoutMs: 60_000 } })
    expect(store.answer(CALL_1, { decision: 'approved', argsText: '{"status":"pending"}' })).toBeUndefined()
    expect(resumed).toEqual([
      {
        from: { nodeId: 'agent', mode: 'fromHere', fromRunId: 'run_1' },
        recorded: {
          nodeId: 'agent',
          tool: 'query_orders',
          args: { status: 'pending' },
          answer: { decision: 'approved', by: 'user', args: { status: 'pending' } },
        },
      },
    ])
    expect(store.store.getState().pending).toEqual([])
    // The rows stay until the continued run is under way: a run that never starts shows them again.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(approvals.rows.size).toBe(1)
    await paused.restore()
    expect(store.store.getState().pending).toHaveLength(1)
    paused.continued('run_1')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(approvals.rows.size).toBe(0)
  })

  it('a decision after the timeout (counted from the original ask) continues as a rejection', async () => {
    const { approvals, store, resumed, paused } = setup([record()], 1_005 + 60_000)
    await approvals.put(row())
    await paused.restore()
    store.answer(CALL_1, { decision: 'approved', argsText: '{}' })
    expect(resumed[0]?.recorded.answer).toEqual({ decision: 'rejected', by: 'timeout' })
  })

  it('rejecting continues with the rejection; a busy run service keeps the card', async () => {
    const { approvals, store, resumed, paused, deps } = setup([record()])
    await approvals.put(row())
    await paused.restore()
    let busy = true
    deps.resume = (from, recorded) => {
      if (busy) return false
      resumed.push({ from, recorded })
      return true
    }
    expect(store.answer(CALL_1, { decision: 'rejected' })).toBe('busy')
    expect(store.store.getState().pending).toHaveLength(1)
    busy = false
    expect(store.answer(CALL_1, { decision: 'rejected' })).toBeUndefined()
    expect(resumed[0]?.recorded.answer).toEqual({ decision: 'rejected', by: 'user' })
  })

  it('drops rows of runs that ended or are gone, and shows nothing for them', async () => {
    const { approvals, store, paused } = setup([record('success')])
    await approvals.put(row())
    await approvals.put(row({ id: approvalRowId('gone', 'agent', 'c'), runId: 'gone', callId: 'c' }))
    await paused.restore()
    expect(approvals.rows.size).toBe(0)
    expect(store.store.getState().pending).toEqual([])
  })

  it('a new run of the flow discards the paused one’s questions', async () => {
    const { approvals, store, paused } = setup([record()])
    await approvals.put(row())
    await paused.restore()
    paused.discard()
    expect(store.store.getState().pending).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(approvals.rows.size).toBe(0)
  })
})
