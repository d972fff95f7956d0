/**
 * Approval of Agent tool calls (flow-control.md, "MCP tools and approval"). A tool that says
 * `"approval": "ask"` has each call wait for a decision from the host's `RunContext.approval`
 * port (the CLI's terminal question or `--approve`; the browser's node console card). The engine keeps the
 * rules that must not differ between hosts: no port means rejected (by `policy`), "always for
 * this tool" approves the tool's later calls in the same run (by `policy`), no answer within
 * `RunContext.approvalTimeoutMs` (on the injected clock) is a rejection `by: "timeout"`, and a
 * Stop while waiting ends the wait (CANCELLED). Pure: no timers but the clock port.
 */
import { APPROVAL_TIMEOUT_MS } from '../defaults.ts'
import type { RunContext } from './context.ts'
import { FlowError } from './errors.ts'
import { raceAbort } from './raceAbort.ts'
import type {
  ApprovalBy,
  ApprovalDecision,
  ApprovalDecisionEvent,
  ApprovalRequestEvent,
  RunEvent,
} from './events.ts'

/** What the host is asked: one call of one Agent node of the run `runId`. */
export interface ApprovalRequest {
  runId: string
  nodeId: string
  callId: string
  tool: string
  /** The parsed arguments object the model sent. */
  args: unknown
}

export interface ApprovalAnswer {
  decision: ApprovalDecision
  by: ApprovalBy
  /** Approved with these arguments instead (the person edited them); checked against the schema. */
  args?: unknown
  /** Approve this tool's later calls in this run, for this node, without asking. */
  always?: boolean
}

/**
 * The host's side. `ask` resolves with the decision; `signal` aborts when the wait ends
 * otherwise (the run stopped, or the timeout passed), so the host can withdraw its question.
 */
export interface ApprovalPort {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>
}

/** Tools approved "always" in a run, by the run's port (each run gets a port of its own). */
const alwaysApproved = new WeakMap<ApprovalPort, Set<string>>()
const TIMED_OUT = Symbol('approval timed out')

function alwaysKey(request: ApprovalRequest): string {
  return `${request.nodeId}\u0000${request.tool}`
}

/**
 * The decision on `request`: asks the port unless a rule answers first. Rejects with CANCELLED
 * when `signal` aborts while waiting.
 */
export async function decideApproval(
  ctx: Pick<RunContext, 'approval' | 'approvalTimeoutMs' | 'clock'>,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<ApprovalAnswer> {
  const port = ctx.approval
  if (!port) return { decision: 'rejected', by: 'policy' }
  if (alwaysApproved.get(port)?.has(alwaysKey(request))) return { decision: 'approved', by: 'policy' }
  if (signal.aborted) throw new FlowError('CANCELLED', 'The run was stopped.', { nodeId: request.nodeId })
  // `ended` stops the port's wait and the timeout: when the run stops, or once the race is over.
  const ended = new AbortController()
  const forward = (): void => ended.abort()
  signal.addEventListener('abort', forward, { once: true })
  // A sleep cancelled once the race is over must not surface as an unhandled rejection.
  const timeout = ctx.clock.sleep(ctx.approvalTimeoutMs ?? APPROVAL_TIMEOUT_MS, ended.signal).then(
    (): typeof TIMED_OUT => TIMED_OUT,
    () => new Promise<never>(() => undefined),
  )
  try {
    const answer = await raceAbort(
      Promise.race([port.ask(request, ended.signal), timeout]),
      signal,
      () => new FlowError('CANCELLED', 'The run was stopped.', { nodeId: request.nodeId }),
    )
    if (answer === TIMED_OUT) return { decision: 'rejected', by: 'timeout' }
    if (answer.decision === 'approved' && answer.always === true) {
      const set = alwaysApproved.get(port) ?? new Set<string>()
      set.add(alwaysKey(request))
      alwaysApproved.set(port, set)
    }
    return answer
  } finally {
    signal.removeEventListener('abort', forward)
    ended.abort()
  }
}

/** What the Agent loop gets back for one asked call. */
export type ToolApproval = { decision: 'approved'; args: unknown } | { decision: 'rejected' }

/** Asks about one tool call of the node (the loop's `approve`). */
export type ToolApprover = (call: { callId: string; tool: string; args: unknown }) => Promise<ToolApproval>

/**
 * The approver of one Agent node: emits `approvalRequest`, waits for the decision, emits
 * `approvalDecision`. `emit` takes stamped events (NodeExecution `emit.forward`, which places
 * them where the node is: inside a loop body or a sub-flow).
 */
export function createToolApprover(
  ctx: Pick<RunContext, 'approval' | 'approvalTimeoutMs' | 'clock' | 'runId'>,
  nodeId: string,
  signal: AbortSignal,
  emit: (event: RunEvent) => void,
): ToolApprover {
  return async ({ callId, tool, args }) => {
    const asked: ApprovalRequestEvent = {
      type: 'approvalRequest',
      runId: ctx.runId,
      at: ctx.clock.now(),
      nodeId,
      callId,
      tool,
      args,
    }
    emit(asked)
    const answer = await decideApproval(ctx, { runId: ctx.runId, nodeId, callId, tool, args }, signal)
    const edited = answer.decision === 'approved' && answer.args !== undefined
    const decided: ApprovalDecisionEvent = {
      type: 'approvalDecision',
      runId: ctx.runId,
      at: ctx.clock.now(),
      nodeId,
      callId,
      decision: answer.decision,
      by: answer.by,
      ...(edited ? { args: answer.args } : {}),
    }
    emit(decided)
    if (answer.decision === 'rejected') return { decision: 'rejected' }
    return { decision: 'approved', args: edited ? answer.args : args }
  }
}
