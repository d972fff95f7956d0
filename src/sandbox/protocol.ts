/**
 * The message protocol between a code runner (host) and its sandbox worker, shared by the
 * browser Web Worker and the Node worker thread. Requests are built by the host; everything a
 * worker sends back is validated with zod before it can settle a run.
 */
import { z } from 'zod'

/** The error codes a sandbox run can end with. */
export type SandboxErrorCode =
  'SANDBOX_TIMEOUT' | 'SANDBOX_MEMORY' | 'SANDBOX_ERROR' | 'SANDBOX_BAD_RESULT' | 'INTERNAL'

/** Limits applied inside the worker to one run. */
export interface SandboxLimits {
  /** QuickJS heap limit per run (also bounds single allocations). */
  memoryBytes: number
  /** QuickJS stack limit (wasm stack) per run. */
  stackBytes: number
  maxLogLines: number
  maxLogLineChars: number
  maxResultChars: number
  /** Longest error message a run reports, its line position included. */
  maxErrorChars: number
}

/** Sent once after the worker starts: loads QuickJS into a capped wasm memory. */
export interface InitMessage {
  type: 'init'
  wasmInitialBytes: number
  wasmMaximumBytes: number
}

/** One run. `bindingsJson` is host JSON, never a host object. */
export interface RunMessage {
  type: 'run'
  id: string
  code: string
  bindingNames: string[]
  bindingsJson: string
  timeoutMs: number
  /** The in-VM interrupt fires at timeoutMs + this (the host's kill comes first). */
  interruptGraceMs: number
  limits: SandboxLimits
}

export type HostMessage = InitMessage | RunMessage

/** What one run produced, as computed inside the worker. */
export type RunOutcome =
  | { ok: true; resultJson: string; logs: string[]; recycle: boolean }
  | {
      ok: false
      code: SandboxErrorCode
      message: string
      line?: number
      column?: number
      logs: string[]
      /** The worker's QuickJS state can no longer be trusted (crash, memory exhausted): replace it. */
      recycle: boolean
    }

export type WorkerMessage =
  { type: 'ready' } | { type: 'failed'; message: string } | { type: 'done'; id: string; outcome: RunOutcome }

const sandboxErrorCode = z.enum([
  'SANDBOX_TIMEOUT',
  'SANDBOX_MEMORY',
  'SANDBOX_ERROR',
  'SANDBOX_BAD_RESULT',
  'INTERNAL',
])

/**
 * Builds the schema for messages from a worker. Lengths are bounded by the limits the host sent,
 * so a misbehaving worker cannot push unbounded data into the page.
 */
export function workerMessageSchema(limits: SandboxLimits): z.ZodType<WorkerMessage> {
  // The sandbox adds an ellipsis to cut lines and one "lines dropped" note.
  const logs = z.array(z.string().max(limits.maxLogLineChars + 1)).max(limits.maxLogLines + 1)
  // The core cuts every message to maxErrorChars, position included.
  const message = z.string().max(limits.maxErrorChars)
  const position = z.number().int().nonnegative().optional()
  const outcome = z.discriminatedUnion('ok', [
    z.object({
      ok: z.literal(true),
      resultJson: z.string().max(limits.maxResultChars),
      logs,
      recycle: z.boolean(),
    }),
    z.object({
      ok: z.literal(false),
      code: sandboxErrorCode,
      message,
      line: position,
      column: position,
      logs,
      recycle: z.boolean(),
    }),
  ])
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('ready') }),
    z.object({ type: z.literal('failed'), message }),
    z.object({ type: z.literal('done'), id: z.string().min(1).max(100), outcome }),
  ])
}
