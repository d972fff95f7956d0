/**
 * Host-neutral QuickJS evaluation: one run of untrusted code in a fresh runtime and context of an
 * already loaded QuickJS wasm module. Used by the browser worker (directly) and by the Node
 * worker thread (through the generated quickjsCore.gen.mjs, see gen-core.mjs).
 *
 * Only type imports besides the prelude: this file must stay transpilable to standalone JS.
 */
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import type { RunMessage, RunOutcome, SandboxErrorCode } from './protocol.ts'
import { VM_PRELUDE } from './vmPrelude.ts'

/** File name the user's code is evaluated under; error positions are read from it. */
export const USER_CODE_FILE = 'user-code.js'

/** What the core needs from the thread it runs on. */
export interface CoreHost {
  now(): number
  /** True when the wasm heap is close to its cap: QuickJS may then throw null for out-of-memory. */
  memoryExhausted(): boolean
}

type Failure = Extract<RunOutcome, { ok: false }>

interface Helpers {
  invoke: QuickJSHandle
  serialize: QuickJSHandle
  describe: QuickJSHandle
}

const STACK_POSITION = new RegExp(`${USER_CODE_FILE.replace('.', '\\.')}:(\\d+)(?::(\\d+))?`)

/** Collects console lines from the VM, bounded in count and length. */
class LogSink {
  readonly lines: string[] = []
  private dropped = 0

  constructor(private readonly maxLines: number) {}

  push(level: string, line: string): void {
    if (this.lines.length >= this.maxLines) {
      this.dropped++
      return
    }
    this.lines.push(level === 'log' || level === 'info' ? line : `[${level}] ${line}`)
  }

  result(): string[] {
    return this.dropped === 0
      ? this.lines
      : [...this.lines, `\u2026 ${this.dropped} more log lines were dropped`]
  }
}

/** Runs one request. Never throws: every failure becomes an outcome. */
export function runInQuickJS(module: QuickJSWASMModule, request: RunMessage, host: CoreHost): RunOutcome {
  const logs = new LogSink(request.limits.maxLogLines)
  let outcome: RunOutcome
  try {
    const runtime = module.newRuntime()
    runtime.setMemoryLimit(request.limits.memoryBytes)
    runtime.setMaxStackSize(request.limits.stackBytes)
    const deadline = host.now() + request.timeoutMs + request.interruptGraceMs
    const state = { interrupted: false }
    runtime.setInterruptHandler(() => {
      if (host.now() <= deadline) return false
      state.interrupted = true
      return true
    })
    const context = runtime.newContext()
    outcome = evaluate(context, runtime, request, logs, state, host)
    try {
      context.dispose()
      runtime.dispose()
    } catch {
      return { ...outcome, recycle: true }
    }
  } catch (error) {
    // A host exception out of a wasm call (trap, native stack overflow) leaves QuickJS's memory in
    // an unknown state: report it and have the worker replaced; never touch the module again.
    return crashOutcome(error, logs.result())
  }
  return outcome
}

function evaluate(
  ctx: QuickJSContext,
  runtime: QuickJSRuntime,
  request: RunMessage,
  logs: LogSink,
  state: { interrupted: boolean },
  host: CoreHost,
): RunOutcome {
  const handles: QuickJSHandle[] = []
  const keep = (h: QuickJSHandle): QuickJSHandle => (handles.push(h), h)
  const fail = (errorHandle: QuickJSHandle | undefined): Failure =>
    describeFailure(ctx, helpers, errorHandle, request, logs, state, host)
  let helpers: Helpers | undefined
  try {
    const hostLog = keep(
      ctx.newFunction('hostLog', (level, line) => {
        if (ctx.typeof(level) === 'string' && ctx.typeof(line) === 'string') {
          logs.push(ctx.getString(level), ctx.getString(line))
        }
      }),
    )
    const prelude = ctx.evalCode(VM_PRELUDE, 'wardflow-prelude.js', { type: 'global', strict: true })
    if (prelude.error) return fail(keep(prelude.error))
    const factory = keep(prelude.value)
    const { limits } = request
    const numbers = [limits.maxLogLineChars, limits.maxResultChars, limits.maxErrorChars].map((n) =>
      keep(ctx.newNumber(n)),
    )
    const made = ctx.callFunction(factory, ctx.undefined, hostLog, ...numbers)
    if (made.error) return fail(keep(made.error))
    const api = keep(made.value)
    helpers = {
      invoke: keep(ctx.getProp(api, 'invoke')),
      serialize: keep(ctx.getProp(api, 'serialize')),
      describe: keep(ctx.getProp(api, 'describe')),
    }

    // The header shares line 1 with the code, so error lines match what the person wrote.
    const source = `(async function (${request.bindingNames.join(', ')}) {${request.code}\n})`
    const compiled = ctx.evalCode(source, USER_CODE_FILE, { type: 'global' })
    if (compiled.error) return fail(keep(compiled.error))
    const fn = keep(compiled.value)
    const bindingsJson = keep(ctx.newString(request.bindingsJson))
    const namesJson = keep(ctx.newString(JSON.stringify(request.bindingNames)))
    const called = ctx.callFunction(helpers.invoke, ctx.undefined, fn, bindingsJson, namesJson)
    if (called.error) return fail(keep(called.error))
    const promise = keep(called.value)

    for (;;) {
      const settled = ctx.getPromiseState(promise)
      if (settled.type === 'fulfilled') return serialize(ctx, helpers, keep(settled.value), logs, fail)
      if (settled.type === 'rejected') return fail(keep(settled.error))
      const jobs = runtime.executePendingJobs()
      if (jobs.error) return fail(keep(jobs.error))
      if (jobs.value === 0) {
        return failure(
          'SANDBOX_ERROR',
          'The code waits for a promise that can never settle: the sandbox has no timers, network or events.',
          logs,
        )
      }
    }
  } finally {
    for (const h of handles.reverse()) if (h.alive) h.dispose()
  }
}

function serialize(
  ctx: QuickJSContext,
  helpers: Helpers,
  value: QuickJSHandle,
  logs: LogSink,
  fail: (error: QuickJSHandle | undefined) => Failure,
): RunOutcome {
  const out = ctx.callFunction(helpers.serialize, ctx.undefined, value)
  if (out.error) {
    const error = out.error
    try {
      return fail(error)
    } finally {
      error.dispose()
    }
  }
  const tagged = ctx.typeof(out.value) === 'string' ? ctx.getString(out.value) : ''
  out.value.dispose()
  if (tagged.startsWith('J'))
    return { ok: true, resultJson: tagged.slice(1), logs: logs.result(), recycle: false }
  return failure(
    'SANDBOX_BAD_RESULT',
    tagged.startsWith('B') ? tagged.slice(1) : 'The result could not be read.',
    logs,
  )
}

function describeFailure(
  ctx: QuickJSContext,
  helpers: Helpers | undefined,
  error: QuickJSHandle | undefined,
  request: RunMessage,
  logs: LogSink,
  state: { interrupted: boolean },
  host: CoreHost,
): Failure {
  if (state.interrupted) {
    return failure(
      'SANDBOX_TIMEOUT',
      `The code ran for more than ${request.timeoutMs} ms and was stopped.`,
      logs,
    )
  }
  const info = error && helpers ? readError(ctx, helpers, error) : undefined
  const outOfMemory = () =>
    failure(
      'SANDBOX_MEMORY',
      `The code ran out of memory (limit ${formatMb(request.limits.memoryBytes)}).`,
      logs,
      true,
    )
  if (!info)
    return host.memoryExhausted() ? outOfMemory() : failure('SANDBOX_ERROR', 'The code failed.', logs)
  if (info.nullish) {
    return host.memoryExhausted()
      ? outOfMemory()
      : failure('SANDBOX_ERROR', 'The code threw null or undefined.', logs)
  }
  if (info.name === 'InternalError' && info.message === 'out of memory') return outOfMemory()
  const position = STACK_POSITION.exec(info.stack)
  const rawLine = position?.[1] === undefined ? undefined : Number(position[1])
  const rawColumn = position?.[2] === undefined ? undefined : Number(position[2])
  // A syntax error at the very end is reported on the wrapper's closing line: clamp it.
  const lastLine = request.code.split('\n').length
  const line = rawLine === undefined ? undefined : Math.min(rawLine, lastLine)
  let column = rawLine === line ? rawColumn : undefined
  if (line === 1 && column !== undefined) column = Math.max(1, column - headerLength(request))
  let text = info.name
    ? info.message
      ? `${info.name}: ${info.message}`
      : info.name
    : `The code threw: ${info.message}`
  if (info.message === 'stack overflow') text = 'Stack overflow: the code recursed too deeply'
  return {
    ...failure('SANDBOX_ERROR', line === undefined ? text : `${text} (line ${line})`, logs),
    line,
    column,
  }
}

interface ErrorInfo {
  nullish: boolean
  name: string
  message: string
  stack: string
}

/** Reads a thrown value through the prelude's describe(); undefined when the VM cannot (e.g. OOM). */
function readError(ctx: QuickJSContext, helpers: Helpers, error: QuickJSHandle): ErrorInfo | undefined {
  const out = ctx.callFunction(helpers.describe, ctx.undefined, error)
  if (out.error) {
    out.error.dispose()
    return undefined
  }
  const text = ctx.typeof(out.value) === 'string' ? ctx.getString(out.value) : ''
  out.value.dispose()
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null) return undefined
    const record = parsed as Record<string, unknown>
    const str = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : '')
    return {
      nullish: record.nullish === true,
      name: str('name'),
      message: str('message'),
      stack: str('stack'),
    }
  } catch {
    return undefined
  }
}

function headerLength(request: RunMessage): number {
  return `(async function (${request.bindingNames.join(', ')}) {`.length
}

function failure(code: SandboxErrorCode, message: string, logs: LogSink, recycle = false): Failure {
  return { ok: false, code, message, logs: logs.result(), recycle }
}

function formatMb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`
}

function crashOutcome(error: unknown, logs: string[]): Failure {
  const message = error instanceof Error ? error.message : String(error)
  const stackOverflow = error instanceof RangeError || /call stack/i.test(message)
  return {
    ok: false,
    code: 'SANDBOX_ERROR',
    message: stackOverflow
      ? 'Stack overflow: the code recursed too deeply.'
      : `The sandbox crashed while running the code: ${message}`,
    logs,
    recycle: true,
  }
}
