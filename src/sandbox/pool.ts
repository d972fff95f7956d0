/**
 * The host side of the sandbox, shared by the browser and Node runners: a small pool of workers,
 * one run per worker at a time. The deadline is enforced from outside: when a run outlives
 * `timeoutMs` or its signal aborts, its worker is terminated (a fresh one starts on demand), so
 * neither `while(true){}` nor a promise that never settles can hold the page or the CLI.
 * Every message from a worker is validated with zod and can only settle that worker's current
 * run, identified by an unguessable id.
 */
import type { WorkerPort, WorkerPortEvents } from '../platform/workerPort.ts'
import {
  SANDBOX_INTERRUPT_GRACE_MS,
  SANDBOX_MAX_ERROR_CHARS,
  SANDBOX_MAX_LOG_LINE_CHARS,
  SANDBOX_MAX_LOG_LINES,
  SANDBOX_MAX_RESULT_CHARS,
  SANDBOX_MAX_WORKERS,
  SANDBOX_MEMORY_LIMIT_BYTES,
  SANDBOX_STACK_LIMIT_BYTES,
  SANDBOX_WASM_INITIAL_BYTES,
  SANDBOX_WASM_OVERHEAD_BYTES,
  SANDBOX_WORKER_START_TIMEOUT_MS,
} from '../defaults.ts'
import {
  FlowError,
  raceAbort,
  type CodeRunner,
  type CodeRunRequest,
  type CodeRunResult,
} from '../engine/index.ts'
import { outcomeToResult, prepareRun, type PreparedRun } from './outcome.ts'
import {
  workerMessageSchema,
  type HostMessage,
  type RunOutcome,
  type SandboxLimits,
  type WorkerMessage,
} from './protocol.ts'

/** A started worker, seen through the two things the pool does with it. */
export type SandboxPort = WorkerPort<HostMessage>

/** What a worker reports back; `failure` covers crashes, exits and unreadable messages. */
export type SandboxPortEvents = WorkerPortEvents

/** Starts one worker (browser Web Worker or Node worker thread). */
export type SandboxPortFactory = (events: SandboxPortEvents) => SandboxPort

export interface SandboxRunnerOptions {
  limits?: Partial<SandboxLimits>
  maxWorkers?: number
  interruptGraceMs?: number
  startTimeoutMs?: number
}

export interface SandboxStats {
  /** Workers started since the runner was made. */
  started: number
  /** Workers alive now (starting, idle or busy). */
  alive: number
  /** Worker messages dropped because they were malformed or named no current run. */
  ignoredMessages: number
}

/** A CodeRunner that can be pre-warmed and shut down. */
export interface SandboxCodeRunner extends CodeRunner {
  /**
   * Starts a worker and loads QuickJS now, so the first run is fast. Resolves at once when a
   * worker is already loaded; rejects with INTERNAL when QuickJS cannot load.
   */
  warm(): Promise<void>
  /** Terminates every worker; runs in flight reject with CANCELLED. */
  dispose(): void
  stats(): SandboxStats
}

/** The default per-run limits from defaults.ts. */
export function defaultSandboxLimits(): SandboxLimits {
  return {
    memoryBytes: SANDBOX_MEMORY_LIMIT_BYTES,
    stackBytes: SANDBOX_STACK_LIMIT_BYTES,
    maxLogLines: SANDBOX_MAX_LOG_LINES,
    maxLogLineChars: SANDBOX_MAX_LOG_LINE_CHARS,
    maxResultChars: SANDBOX_MAX_RESULT_CHARS,
    maxErrorChars: SANDBOX_MAX_ERROR_CHARS,
  }
}

interface Job {
  id: string
  settle(outcome: RunOutcome): void
  fail(error: FlowError): void
}

interface Slot {
  port: SandboxPort
  state: 'starting' | 'idle' | 'busy' | 'dead'
  /** A run waits for this worker to start (every worker but the ones warm() starts). */
  claimed: boolean
  ready: Promise<void>
  job?: Job
  onReady(error?: FlowError): void
  /** Rejects whoever waits on this slot (startup or run) when it dies. */
  onDeath(error: FlowError): void
}

const cancelled = () => new FlowError('CANCELLED', 'The run was stopped.')

/** Builds a pooled code runner on top of a worker factory. */
export function createPooledCodeRunner(
  factory: SandboxPortFactory,
  options: SandboxRunnerOptions = {},
): SandboxCodeRunner {
  const limits: SandboxLimits = { ...defaultSandboxLimits(), ...options.limits }
  const maxWorkers = Math.max(1, options.maxWorkers ?? SANDBOX_MAX_WORKERS)
  const interruptGraceMs = options.interruptGraceMs ?? SANDBOX_INTERRUPT_GRACE_MS
  const startTimeoutMs = options.startTimeoutMs ?? SANDBOX_WORKER_START_TIMEOUT_MS
  const schema = workerMessageSchema(limits)
  const slots = new Set<Slot>()
  const stats = { started: 0, ignoredMessages: 0 }
  let changed: Array<() => void> = []
  let disposed = false

  /** Wakes every caller waiting for a free worker. */
  const notify = () => {
    const waiting = changed
    changed = []
    for (const wake of waiting) wake()
  }

  const kill = (slot: Slot, error: FlowError) => {
    if (slot.state === 'dead') return
    slot.state = 'dead'
    slots.delete(slot)
    slot.port.terminate()
    slot.onDeath(error)
    notify()
  }

  const spawn = (claimed: boolean): Slot => {
    let resolveReady: () => void = () => {}
    let rejectReady: (error: FlowError) => void = () => {}
    const ready = new Promise<void>((resolve, reject) => {
      resolveReady = resolve
      rejectReady = reject
    })
    ready.catch(() => {}) // observed by whoever awaits it; never an unhandled rejection
    const startTimer = setTimeout(
      () => kill(slot, new FlowError('INTERNAL', `The sandbox did not start within ${startTimeoutMs} ms.`)),
      startTimeoutMs,
    )
    const slot: Slot = {
      port: undefined as unknown as SandboxPort,
      state: 'starting',
      claimed,
      ready,
      onReady(error) {
        clearTimeout(startTimer)
        if (error) return kill(slot, error)
        slot.state = 'idle'
        resolveReady()
        notify()
      },
      onDeath(error) {
        clearTimeout(startTimer)
        rejectReady(error)
        const job = slot.job
        slot.job = undefined
        job?.fail(error)
      },
    }
    slot.port = factory({
      message: (data) => receive(slot, data),
      failure: (reason) =>
        kill(slot, new FlowError('SANDBOX_ERROR', `The sandbox stopped unexpectedly: ${reason}`)),
    })
    slots.add(slot)
    stats.started++
    slot.port.post({
      type: 'init',
      wasmInitialBytes: SANDBOX_WASM_INITIAL_BYTES,
      wasmMaximumBytes: limits.memoryBytes + SANDBOX_WASM_OVERHEAD_BYTES,
    })
    return slot
  }

  const receive = (slot: Slot, data: unknown) => {
    const parsed = schema.safeParse(data)
    if (!parsed.success && slot.job && isRecord(data) && data.id === slot.job.id) {
      // Only this worker knows the id: its answer is broken, not forged. Fail now, not at the deadline.
      slot.job.fail(new FlowError('INTERNAL', 'The sandbox sent an answer that could not be read.'))
      return kill(slot, cancelled())
    }
    if (!parsed.success || slot.state === 'dead') return void stats.ignoredMessages++
    const message: WorkerMessage = parsed.data
    if (message.type === 'ready' && slot.state === 'starting') return slot.onReady()
    if (message.type === 'failed' && slot.state === 'starting') {
      return slot.onReady(new FlowError('INTERNAL', `The sandbox could not load QuickJS: ${message.message}`))
    }
    if (message.type === 'done' && slot.job && slot.job.id === message.id)
      return slot.job.settle(message.outcome)
    stats.ignoredMessages++
  }

  /** Resolves with a worker reserved for the caller (state 'busy'). */
  const acquire = async (signal?: AbortSignal): Promise<Slot> => {
    for (;;) {
      if (disposed) throw cancelled()
      if (signal?.aborted) throw cancelled()
      const idle = [...slots].find((s) => s.state === 'idle')
      if (idle) {
        idle.state = 'busy'
        return idle
      }
      // A worker warm() is loading serves the first run that needs one: starting a second
      // would load QuickJS twice at once, which slows both on a small machine.
      const warming = [...slots].find((s) => s.state === 'starting' && !s.claimed)
      if (warming) warming.claimed = true
      const wait = warming
        ? warming.ready
        : slots.size < maxWorkers
          ? spawn(true).ready
          : new Promise<void>((resolve) => changed.push(resolve))
      await (signal ? raceAbort(wait, signal, cancelled) : wait)
    }
  }

  const release = (slot: Slot) => {
    if (slot.state !== 'busy') return
    slot.state = 'idle'
    notify()
  }

  const execute = (slot: Slot, request: CodeRunRequest, prepared: PreparedRun) =>
    new Promise<RunOutcome>((resolve, reject) => {
      // The worker may have died (dispose, crash) between being reserved and this run starting.
      if (slot.state !== 'busy') {
        return reject(
          disposed ? cancelled() : new FlowError('SANDBOX_ERROR', 'The sandbox stopped unexpectedly.'),
        )
      }
      const id = newRequestId()
      const finish = () => {
        clearTimeout(timer)
        request.signal.removeEventListener('abort', onAbort)
        slot.job = undefined
      }
      // The run is over for the caller first; then its worker goes, whatever it was doing.
      const stop = (error: FlowError) => {
        finish()
        reject(error)
        kill(slot, cancelled())
      }
      const onAbort = () => stop(cancelled())
      const timer = setTimeout(
        () =>
          stop(
            new FlowError(
              'SANDBOX_TIMEOUT',
              `The code ran for more than ${prepared.timeoutMs} ms and was stopped.`,
              {
                details: { timeoutMs: prepared.timeoutMs },
              },
            ),
          ),
        prepared.timeoutMs,
      )
      request.signal.addEventListener('abort', onAbort, { once: true })
      slot.job = {
        id,
        settle: (outcome) => {
          finish()
          if (outcome.recycle) kill(slot, cancelled())
          else release(slot)
          resolve(outcome)
        },
        fail: (error) => {
          finish()
          reject(error)
        },
      }
      slot.port.post({ type: 'run', id, ...prepared, interruptGraceMs, limits })
    })

  return {
    async run(request: CodeRunRequest): Promise<CodeRunResult> {
      if (request.signal.aborted) throw cancelled()
      const prepared = prepareRun(request)
      const slot = await acquire(request.signal)
      const outcome = await execute(slot, request, prepared)
      return outcomeToResult(outcome)
    },
    async warm() {
      if (disposed) throw cancelled()
      const live = [...slots]
      if (live.some((s) => s.state === 'idle' || s.state === 'busy')) return
      await (live.find((s) => s.state === 'starting') ?? spawn(false)).ready
    },
    dispose() {
      disposed = true
      for (const slot of [...slots]) kill(slot, cancelled())
    },
    stats: () => ({ started: stats.started, alive: slots.size, ignoredMessages: stats.ignoredMessages }),
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** An unguessable id: randomUUID where available (secure contexts), else 128 random bits. */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
