/**
 * The browser's approval port (flow-control.md, "MCP tools and approval"): each Agent tool call
 * that asks waits here as a pending request until the person answers from the node's console
 * card (`approval-request`). The engine keeps the rules (timeout, "always for this tool", Stop);
 * this store only holds the questions and hands back the answers. A question restored after a
 * reload (`restored`) has no waiting run: its answer goes to the runs area's handler, which
 * continues the interrupted run with it (app/runs/pausedRuns.ts).
 */
import { createStore } from 'zustand'
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest } from '../engine/approval.ts'

export interface PendingApproval extends ApprovalRequest {
  /** The arguments as pretty JSON text, the card's editable field starts with it. */
  argsText: string
  /** Asked before the page reloaded: when, and the timeout then (it still counts from there). */
  restored?: { askedAt: number; timeoutMs: number }
}

export interface ApprovalState {
  pending: ReadonlyArray<PendingApproval>
}

/** What the card sends: approve with (possibly edited) JSON text, or reject. */
export type ApprovalChoice =
  { decision: 'approved'; argsText: string; always?: boolean } | { decision: 'rejected' }

/**
 * Why an answer was refused before reaching the engine (the card shows it, the card stays):
 * `busy`: a restored question cannot continue its run while another run is under way.
 */
export type ApprovalRefusal = 'invalidJson' | 'unknownCall' | 'busy'

/** Takes a restored question's answer; false when the run cannot be continued now. */
export type RestoredAnswerHandler = (pending: PendingApproval, answer: ApprovalAnswer) => boolean

export const argsTextOf = (args: unknown): string => JSON.stringify(args ?? {}, null, 2)

/**
 * A question's identity: a call id alone is not unique in a run (providers that send none get
 * per-node numbers, `call_demo_1_0`, so two Agents side by side ask with the same id).
 */
export function pendingKey(request: Pick<ApprovalRequest, 'runId' | 'nodeId' | 'callId'>): string {
  return `${request.runId}\u0000${request.nodeId}\u0000${request.callId}`
}

export function createApprovalStore() {
  const store = createStore<ApprovalState>(() => ({ pending: [] }))
  const waiting = new Map<string, (answer: ApprovalAnswer) => void>()
  let onRestored: RestoredAnswerHandler | undefined

  const withdraw = (key: string): void => {
    waiting.delete(key)
    store.setState((s) => ({ pending: s.pending.filter((p) => pendingKey(p) !== key) }))
  }

  const port: ApprovalPort = {
    ask(request, signal) {
      return new Promise<ApprovalAnswer>((resolve) => {
        const key = pendingKey(request)
        waiting.set(key, resolve)
        store.setState((s) => ({
          pending: [...s.pending, { ...request, argsText: argsTextOf(request.args) }],
        }))
        // The engine settles the wait itself on timeout or Stop; the question only disappears.
        signal.addEventListener('abort', () => withdraw(key), { once: true })
      })
    },
  }

  /** Answers the pending call `key` (pendingKey); returns why it could not, or undefined when sent. */
  function answer(key: string, choice: ApprovalChoice): ApprovalRefusal | undefined {
    const resolve = waiting.get(key)
    const restored = store.getState().pending.find((p) => pendingKey(p) === key && p.restored)
    if (!resolve && !(restored && onRestored)) return 'unknownCall'
    let decided: ApprovalAnswer = { decision: 'rejected', by: 'user' }
    if (choice.decision === 'approved') {
      try {
        decided = { decision: 'approved', by: 'user', args: JSON.parse(choice.argsText) as unknown }
      } catch {
        return 'invalidJson'
      }
      if (choice.always) decided.always = true
    }
    if (restored && onRestored && !onRestored(restored, decided)) return 'busy'
    withdraw(key)
    resolve?.(decided)
    return undefined
  }

  /** Shows the questions a reload left (replacing those restored before); live ones stay. */
  function restore(items: readonly PendingApproval[], handler: RestoredAnswerHandler): void {
    onRestored = handler
    store.setState((s) => ({ pending: [...s.pending.filter((p) => !p.restored), ...items] }))
  }

  return { store, port, answer, restore }
}

export type ApprovalStore = ReturnType<typeof createApprovalStore>

/** The app's one store: every browser run asks through its port. */
export const approvalStore: ApprovalStore = createApprovalStore()
