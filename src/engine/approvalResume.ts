/**
 * Continuing a run that paused on an approval the page lost (a reload; flow-control.md, "MCP
 * tools and approval"). The engine cannot re-enter an Agent loop halfway: the browser continues
 * the interrupted run from the paused node (run from here, upstream outputs reused), so the
 * Agent starts again from its first turn. The person's decision is recorded ahead of the call:
 * the first call of that node with the same tool and the same arguments (the loop guard's
 * canonical signature, so key order or spacing do not matter) gets it without asking again.
 * A model that makes another call this time is asked about that call as usual. Pure.
 */
import { APPROVAL_TIMEOUT_MS } from '../defaults.ts'
import { canonicalToolSignature } from './agent/signature.ts'
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest } from './approval.ts'

/** A decision taken after the reload, for one call asked before it. */
export interface RecordedApproval {
  nodeId: string
  tool: string
  /** The arguments the call was asked with. */
  args: unknown
  answer: ApprovalAnswer
}

/** When a question was asked and how long it may wait (the run's `approvalTimeoutMs`). */
export interface AskedAt {
  askedAt: number
  timeoutMs?: number
}

/**
 * The answer that counts for a question asked at `asked.askedAt` and answered at `now`: the
 * timeout runs from the original ask, across the reload, so a late decision is a rejection
 * `by: "timeout"`, as it would have been had the page stayed open.
 */
export function answerAfterReload(asked: AskedAt, answer: ApprovalAnswer, now: number): ApprovalAnswer {
  const timeoutMs = asked.timeoutMs ?? APPROVAL_TIMEOUT_MS
  if (now - asked.askedAt >= timeoutMs) return { decision: 'rejected', by: 'timeout' }
  return answer
}

function signatureOf(tool: string, args: unknown): string {
  return canonicalToolSignature(tool, JSON.stringify(args ?? {}))
}

/** True when `request` is the recorded call again: same node, same tool, same arguments. */
export function matchesRecorded(
  recorded: Omit<RecordedApproval, 'answer'>,
  request: ApprovalRequest,
): boolean {
  return (
    request.nodeId === recorded.nodeId &&
    signatureOf(request.tool, request.args) === signatureOf(recorded.tool, recorded.args)
  )
}

/**
 * The continued run's port: answers the first call matching `recorded` with its answer (once),
 * and asks `inner` about every other call (no port: rejected by policy, as decideApproval does).
 */
export function withRecordedAnswer(
  inner: ApprovalPort | undefined,
  recorded: RecordedApproval,
): ApprovalPort {
  let used = false
  return {
    ask(request, signal) {
      if (!used && matchesRecorded(recorded, request)) {
        used = true
        return Promise.resolve(recorded.answer)
      }
      if (!inner) return Promise.resolve({ decision: 'rejected', by: 'policy' })
      return inner.ask(request, signal)
    },
  }
}
