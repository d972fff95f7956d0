/**
 * Paused runs across a reload (flow-control.md, "MCP tools and approval"; issue 21). While a run
 * goes, each `approvalRequest` is written to the approvals table and removed once decided or when
 * the run ends (trackApprovals). Rows still there after a reload are questions whose run the page
 * lost: for the open flow, the newest such run is shown as it stood when it paused (the Agent
 * still `running`, the nodes after it `queued`, the run `interrupted` as its record says) with
 * the card again. The answer continues that run from the paused node (run from here: upstream
 * outputs reused), the Agent starting again from its first turn with the decision recorded for
 * the same call (engine/approvalResume.ts). Exact re-entry into the middle of the Agent loop is
 * not possible: the loop's state was in the page that reloaded.
 */
import {
  answerAfterReload,
  canvasPlace,
  toFlowError,
  type ApprovalAnswer,
  type RecordedApproval,
  type RunEvent,
} from '../../engine/run.ts'
import { APPROVAL_TIMEOUT_MS } from '../../defaults.ts'
import type { WardflowDb } from '../../storage/db.ts'
import {
  approvalRowId,
  listApprovals,
  putApproval,
  removeApproval,
  removeRunApprovals,
  type ApprovalRow,
} from '../../storage/repositories/approvals.ts'
import {
  approvalStore as appApprovals,
  argsTextOf,
  pendingKey,
  type ApprovalStore,
  type PendingApproval,
} from '../../store/approvalStore.ts'
import type { BannerError } from '../../store/noticeStore.ts'
import type { RunStore } from '../../store/runStore.ts'
import { replayRunEvents, type ReduceOptions } from '../../store/runStoreReducer.ts'
import type { FromHereRequest } from './reuseOptions.ts'
import { parseStoredEvents } from './runEventSchema.ts'
import type { RunsRepository } from './runHistory.ts'
import type { RunRecord } from '../../storage/rows.ts'

export interface ApprovalsRepository {
  put(row: ApprovalRow): Promise<void>
  remove(id: string): Promise<void>
  removeRun(runId: string): Promise<void>
  /** Oldest question first. */
  list(): Promise<ApprovalRow[]>
}

export function dexieApprovalsRepository(db: () => Promise<WardflowDb>): ApprovalsRepository {
  return {
    put: async (row) => putApproval(await db(), row),
    remove: async (id) => removeApproval(await db(), id),
    removeRun: async (runId) => {
      await removeRunApprovals(await db(), runId)
    },
    list: async () => listApprovals(await db()),
  }
}

/** One run's rows, written in event order (a decision never lands before its question). */
export function trackApprovals(
  repo: ApprovalsRepository,
  runId: string,
  flowId: string,
  timeoutMs: number = APPROVAL_TIMEOUT_MS,
): { seen(event: RunEvent): void; end(): Promise<void> } {
  const run = { runId, flowId, timeoutMs }
  let chain: Promise<void> = Promise.resolve()
  // A failed write only costs the question its reload; the run goes on.
  const then = (op: () => Promise<void>): void => {
    chain = chain.then(op).catch(() => undefined)
  }
  return {
    seen(event) {
      if (event.type === 'approvalRequest') {
        const row: ApprovalRow = {
          id: approvalRowId(run.runId, event.nodeId, event.callId),
          runId: run.runId,
          flowId: run.flowId,
          nodeId: event.nodeId,
          fromNodeId: canvasPlace(event).nodeId,
          callId: event.callId,
          tool: event.tool,
          args: event.args,
          askedAt: event.at,
          timeoutMs: run.timeoutMs,
        }
        then(() => repo.put(row))
      } else if (event.type === 'approvalDecision') {
        const id = approvalRowId(run.runId, event.nodeId, event.callId)
        then(() => repo.remove(id))
      }
    },
    async end() {
      then(() => repo.removeRun(run.runId))
      await chain
    },
  }
}

export interface PausedRunsDeps {
  approvals: ApprovalsRepository
  repository: RunsRepository
  runs: RunStore
  openFlowId(): string | null
  /** True for a run of this page still going (its questions are live, not lost). */
  isLive(runId: string): boolean
  reduce: ReduceOptions
  now(): number
  /** Starts the continued run; false when another run is under way. */
  resume(from: FromHereRequest, recorded: RecordedApproval): boolean
  /** A storage failure while restoring (the banner). */
  showError(error: BannerError): void
  store?: ApprovalStore
}

export function createPausedRuns(deps: PausedRunsDeps) {
  const store = deps.store ?? appApprovals
  /** The rows whose cards are shown, by pendingKey. */
  let shown = new Map<string, ApprovalRow>()

  function answered(row: ApprovalRow, answer: ApprovalAnswer): boolean {
    const recorded: RecordedApproval = {
      nodeId: row.nodeId,
      tool: row.tool,
      args: row.args,
      answer: answerAfterReload(row, answer, deps.now()),
    }
    if (!deps.resume({ nodeId: row.fromNodeId, mode: 'fromHere', fromRunId: row.runId }, recorded))
      return false
    // The other questions of that run (parallel calls) are asked again by the continued run. The
    // rows stay until it is under way (continued): a run that never starts shows them again.
    shown = new Map()
    store.restore([], handler)
    return true
  }

  /** The continuation of `runId` started: its questions are answered or asked again by it. */
  function continued(runId: string): void {
    void deps.approvals.removeRun(runId).catch(() => undefined)
  }
  const handler = (pending: PendingApproval, answer: ApprovalAnswer): boolean => {
    const row = shown.get(pendingKey(pending))
    return row ? answered(row, answer) : false
  }

  /** Shows the open flow's paused run, if a reload left one; drops rows of runs that ended. */
  async function restore(): Promise<void> {
    try {
      await restoreNow()
    } catch (error) {
      const e = toFlowError(error, 'STORAGE_FAILED')
      deps.showError({ code: e.code, message: e.message, details: e.details })
    }
  }

  async function restoreNow(): Promise<void> {
    const flowId = deps.openFlowId()
    const rows = await deps.approvals.list()
    const mine: ApprovalRow[] = []
    // Each run's record is read once (a run may wait on several questions), and drawn from here.
    const records = new Map<string, RunRecord | undefined>()
    for (const row of rows) {
      if (deps.isLive(row.runId)) continue
      if (!records.has(row.runId)) records.set(row.runId, await deps.repository.get(row.runId))
      const record = records.get(row.runId)
      // Ended after all (its last write raced the reload), or no longer in history: nothing waits.
      if (!record || record.status !== 'interrupted') await deps.approvals.remove(row.id)
      else if (row.flowId === flowId) mine.push(row)
    }
    const newest = mine.at(-1)
    if (deps.openFlowId() !== flowId) return
    const rowsOfRun = newest ? mine.filter((r) => r.runId === newest.runId) : []
    shown = new Map(rowsOfRun.map((r) => [pendingKey(r), r]))
    const record = newest ? records.get(newest.runId) : undefined
    if (record && deps.runs.getState().phase === 'idle') {
      const view = replayRunEvents(parseStoredEvents(record.events), deps.reduce)
      const run = view.run && { ...view.run, status: 'interrupted' as const, finishedAt: record.finishedAt }
      deps.runs.getState().actions.reset()
      // The live view as it stood before the reload (no store action sets a whole view at once).
      deps.runs.setState({ nodes: view.nodes, run })
    }
    store.restore(
      rowsOfRun.map((r) => ({
        runId: r.runId,
        nodeId: r.nodeId,
        callId: r.callId,
        tool: r.tool,
        args: r.args,
        argsText: argsTextOf(r.args),
        restored: { askedAt: r.askedAt, timeoutMs: r.timeoutMs },
      })),
      handler,
    )
  }

  /** A new run of the flow replaces the paused one: its questions go (its record stays interrupted). */
  function discard(): void {
    const runIds = new Set([...shown.values()].map((r) => r.runId))
    shown = new Map()
    store.restore([], handler)
    for (const runId of runIds) void deps.approvals.removeRun(runId).catch(() => undefined)
  }

  return { restore, discard, continued }
}

export type PausedRuns = ReturnType<typeof createPausedRuns>
