/**
 * Host-neutral QuickJS evaluation: one run of untrusted code in a fresh runtime and context of an
 * already loaded QuickJS wasm module. Used by the browser worker (directly) and by the Node
 * worker thread (through generated/quickjsCore.mjs, made by `npm run generate`).
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
  logs: QuickJSHandle
}

const STACK_POSITION = new RegExp(`${USER_CODE_FILE.replace('.', '\\.')}:(\\d+)(?::(\\d+))?`)

/** Runs one request. Never throws: every failure becomes an outcome. */
export function runInQuickJS(module: QuickJSWASMModule, request: RunMessage, host: CoreHost): RunOutcome {
  let outcome: RunOutcome
  try {
    const runtime = module.newRuntime()
    runtime.setMemoryLimit(request.limits.memoryBytes)
    runtime.setMaxStackSize(request.limits.stackBytes)
    const context = runtime.newContext()
    outcome = clampMessage(new Run(context, runtime, request, host).execute(), request.limits.maxErrorChars)
    try {
      context.dispose()
      runtime.dispose()
    } catch {
      return { ...outcome, recycle: true }
    }
  } catch (error) {
    // A host exception out of a wasm call (trap, native stack overflow) leaves QuickJS's memory in
    // an unknown state: report it and have the worker replaced; never touch the module again.
    return clampMessage(crashOutcome(error), request.limits.maxErrorChars)
  }
  return outcome
}

/** The host refuses longer messages, so every message leaves the core within the limit. */
function clampMessage(outcome: RunOutcome, maxChars: number): RunOutcome {
  return outcome.ok || outcome.message.length <= maxChars
    ? outcome
    : { ...outcome, message: outcome.message.slice(0, maxChars) }
}

/** One evaluation; owns every handle it creates and disposes them before the context goes. */
class Run {
  private readonly handles: QuickJSHandle[] = []
  private helpers: Helpers | undefined
  private interrupted = false
  /** Cleared while the host reads the logs, which runs only the prelude's own code. */
  private armed = true

  constructor(
    private readonly ctx: QuickJSContext,
    private readonly runtime: QuickJSRuntime,
    private readonly request: RunMessage,
    private readonly host: CoreHost,
  ) {
    const deadline = host.now() + request.timeoutMs + request.interruptGraceMs
    runtime.setInterruptHandler(() => {
      if (!this.armed || host.now() <= deadline) return false
      this.interrupted = true
      return true
    })
  }

  execute(): RunOutcome {
    try {
      const outcome = this.evaluate()
      return { ...outcome, logs: this.readLogs() }
    } finally {
      for (const handle of this.handles.reverse()) if (handle.alive) handle.dispose()
    }
  }

  private keep(handle: QuickJSHandle): QuickJSHandle {
    this.handles.push(handle)
    return handle
  }

  private evaluate(): RunOutcome {
    const { ctx, request } = this
    const prelude = ctx.evalCode(VM_PRELUDE, 'wardflow-prelude.js', { type: 'global', strict: true })
    if (prelude.error) return this.fail(this.keep(prelude.error))
    const { limits } = request
    const numbers = [limits.maxLogLines, limits.maxLogLineChars, limits.maxResultChars, limits.maxErrorChars]
    const made = ctx.callFunction(
      this.keep(prelude.value),
      ctx.undefined,
      ...numbers.map((n) => this.keep(ctx.newNumber(n))),
    )
    if (made.error) return this.fail(this.keep(made.error))
    const api = this.keep(made.value)
    const helpers: Helpers = {
      invoke: this.keep(ctx.getProp(api, 'invoke')),
      serialize: this.keep(ctx.getProp(api, 'serialize')),
      describe: this.keep(ctx.getProp(api, 'describe')),
      logs: this.keep(ctx.getProp(api, 'logs')),
    }
    this.helpers = helpers

    // The header shares line 1 with the code, so error lines match what the person wrote.
    const compiled = ctx.evalCode(`${header(request)}${request.code}\n})`, USER_CODE_FILE, { type: 'global' })
    if (compiled.error) return this.fail(this.keep(compiled.error))
    const args = [request.bindingsJson, JSON.stringify(request.bindingNames)].map((s) =>
      this.keep(ctx.newString(s)),
    )
    const called = ctx.callFunction(helpers.invoke, ctx.undefined, this.keep(compiled.value), ...args)
    if (called.error) return this.fail(this.keep(called.error))
    const promise = this.keep(called.value)

    for (;;) {
      const settled = ctx.getPromiseState(promise)
      if (settled.type === 'fulfilled') return this.serialize(this.keep(settled.value))
      if (settled.type === 'rejected') return this.fail(this.keep(settled.error))
      const jobs = this.runtime.executePendingJobs()
      if (jobs.error) return this.fail(this.keep(jobs.error))
      if (jobs.value === 0) {
        // Nothing in the VM can ever resolve it: there are no timers, network or events.
        const message =
          'The code waits for a promise that can never settle: the sandbox has no timers, network or events.'
        return failure('SANDBOX_ERROR', message)
      }
    }
  }

  private serialize(value: QuickJSHandle): RunOutcome {
    const tagged = this.callForString('serialize', value)
    if (tagged.error) return this.fail(tagged.error)
    if (tagged.text.startsWith('J'))
      return { ok: true, resultJson: tagged.text.slice(1), logs: [], recycle: false }
    return failure(
      'SANDBOX_BAD_RESULT',
      tagged.text.startsWith('B') ? tagged.text.slice(1) : 'The result could not be read.',
    )
  }

  /** Calls a prelude helper that returns a string; errors come back as a kept handle. */
  private callForString(name: keyof Helpers, arg?: QuickJSHandle): { text: string; error?: QuickJSHandle } {
    const { ctx } = this
    const fn = this.helpers?.[name]
    if (!fn) return { text: '' }
    const out = ctx.callFunction(fn, ctx.undefined, ...(arg ? [arg] : []))
    if (out.error) return { text: '', error: this.keep(out.error) }
    const text = ctx.typeof(out.value) === 'string' ? ctx.getString(out.value) : ''
    out.value.dispose()
    return { text }
  }

  private readLogs(): string[] {
    this.armed = false
    const { text, error } = this.callForString('logs')
    if (error || !text) return []
    const parsed = parseObject(text)
    const lines = Array.isArray(parsed?.lines)
      ? parsed.lines.filter((l): l is string => typeof l === 'string')
      : []
    const dropped = typeof parsed?.dropped === 'number' ? parsed.dropped : 0
    return dropped > 0 ? [...lines, `\u2026 ${dropped} more log lines were dropped`] : lines
  }

  private fail(error: QuickJSHandle): Failure {
    const { request } = this
    if (this.interrupted) {
      return failure('SANDBOX_TIMEOUT', `The code ran for more than ${request.timeoutMs} ms and was stopped.`)
    }
    const outOfMemory = () =>
      failure(
        'SANDBOX_MEMORY',
        `The code ran out of memory (limit ${formatMb(request.limits.memoryBytes)}).`,
        true,
      )
    const described = this.callForString('describe', error)
    const info = described.error ? undefined : parseObject(described.text)
    if (!info)
      return this.host.memoryExhausted() ? outOfMemory() : failure('SANDBOX_ERROR', 'The code failed.')
    const str = (key: string) => (typeof info[key] === 'string' ? (info[key] as string) : '')
    const [name, message, stack] = [str('name'), str('message'), str('stack')]
    if (info.nullish === true) {
      return this.host.memoryExhausted()
        ? outOfMemory()
        : failure('SANDBOX_ERROR', 'The code threw null or undefined.')
    }
    if (name === 'InternalError' && message === 'out of memory') return outOfMemory()
    const position = STACK_POSITION.exec(stack)
    const rawLine = position?.[1] === undefined ? undefined : Number(position[1])
    // A syntax error at the very end is reported on the wrapper's closing line: clamp it.
    const line = rawLine === undefined ? undefined : Math.min(rawLine, request.code.split('\n').length)
    let column = rawLine === line && position?.[2] !== undefined ? Number(position[2]) : undefined
    if (line === 1 && column !== undefined) column = Math.max(1, column - header(request).length)
    let text = name ? (message ? `${name}: ${message}` : name) : `The code threw: ${message}`
    if (message === 'stack overflow') text = 'Stack overflow: the code recursed too deeply'
    const suffix = line === undefined ? '' : ` (line ${line})`
    const kept = text.slice(0, Math.max(0, request.limits.maxErrorChars - suffix.length))
    return { ...failure('SANDBOX_ERROR', kept + suffix), line, column }
  }
}

function header(request: RunMessage): string {
  return `(async function (${request.bindingNames.join(', ')}) {`
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

function failure(code: SandboxErrorCode, message: string, recycle = false): Failure {
  return { ok: false, code, message, logs: [], recycle }
}

function formatMb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`
}

function crashOutcome(error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error)
  const stackOverflow = error instanceof RangeError || /call stack/i.test(message)
  return failure(
    'SANDBOX_ERROR',
    stackOverflow
      ? 'Stack overflow: the code recursed too deeply.'
      : `The sandbox crashed while running the code: ${message.slice(0, 500)}`,
    true,
  )
}
