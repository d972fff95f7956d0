/**
 * The browser's approval port (flow-control.md, "MCP tools and approval"): each Agent tool call
 * that asks waits here as a pending request until the person answers from the node's console
 * card (`approval-request`). The engine keeps the rules (timeout, "always for this tool", Stop);
 * this store only holds the questions and hands back the answers.
 */
import { createStore } from 'zustand'
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest } from '../engine/approval.ts'

export interface PendingApproval extends ApprovalRequest {
  /** The arguments as pretty JSON text, the card's editable field starts with it. */
  argsText: string
}

export interface ApprovalState {
  pending: ReadonlyArray<PendingApproval>
}

/** What the card sends: approve with (possibly edited) JSON text, or reject. */
export type ApprovalChoice =
  { decision: 'approved'; argsText: string; always?: boolean } | { decision: 'rejected' }

/** Why an approve was refused before reaching the engine (the card shows it, Approve stays blocked). */
export type ApprovalRefusal = 'invalidJson' | 'unknownCall'

export function createApprovalStore() {
  const store = createStore<ApprovalState>(() => ({ pending: [] }))
  const waiting = new Map<string, (answer: ApprovalAnswer) => void>()

  const withdraw = (callId: string): void => {
    waiting.delete(callId)
    store.setState((s) => ({ pending: s.pending.filter((p) => p.callId !== callId) }))
  }

  const port: ApprovalPort = {
    ask(request, signal) {
      return new Promise<ApprovalAnswer>((resolve) => {
        const argsText = JSON.stringify(request.args ?? {}, null, 2)
        waiting.set(request.callId, resolve)
        store.setState((s) => ({ pending: [...s.pending, { ...request, argsText }] }))
        // The engine settles the wait itself on timeout or Stop; the question only disappears.
        signal.addEventListener('abort', () => withdraw(request.callId), { once: true })
      })
    },
  }

  /** Answers the pending call `callId`; returns why it could not, or undefined when sent. */
  function answer(callId: string, choice: ApprovalChoice): ApprovalRefusal | undefined {
    const resolve = waiting.get(callId)
    if (!resolve) return 'unknownCall'
    if (choice.decision === 'rejected') {
      withdraw(callId)
      resolve({ decision: 'rejected', by: 'user' })
      return undefined
    }
    let args: unknown
    try {
      args = JSON.parse(choice.argsText)
    } catch {
      return 'invalidJson'
    }
    withdraw(callId)
    resolve({ decision: 'approved', by: 'user', args, ...(choice.always ? { always: true } : {}) })
    return undefined
  }

  return { store, port, answer }
}

export type ApprovalStore = ReturnType<typeof createApprovalStore>

/** The app's one store: every browser run asks through its port. */
export const approvalStore: ApprovalStore = createApprovalStore()
