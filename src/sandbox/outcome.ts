/**
 * Host-side edges of a sandbox run: turning a CodeRunRequest into the JSON the worker gets (never
 * a host object), and a worker's outcome into a CodeRunResult or a FlowError.
 */
import { SANDBOX_MAX_RESULT_DEPTH } from '../defaults.ts'
import { FlowError, type CodeRunRequest, type CodeRunResult } from '../engine/index.ts'
import type { RunOutcome } from './protocol.ts'

/** The request fields the worker receives, already serialised. */
export interface PreparedRun {
  code: string
  bindingNames: string[]
  bindingsJson: string
  /** Whole milliseconds, as the worker expects. */
  timeoutMs: number
}

/** Longest delay setTimeout honours; larger values fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1

function checkedTimeout(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
    throw new FlowError(
      'INTERNAL',
      `A sandbox timeout must be between 1 and ${MAX_TIMER_MS} ms, not ${timeoutMs}.`,
    )
  }
  return Math.ceil(timeoutMs)
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/
// Names that cannot be parameters of the wrapper function (or would shadow what code relies on).
const RESERVED = new Set(
  (
    'arguments await break case catch class const continue debugger default delete do else enum eval export ' +
    'extends false finally for function if implements import in instanceof interface let new null package ' +
    'private protected public return static super switch this throw true try typeof undefined var void while with yield'
  ).split(' '),
)

/** Validates binding names and serialises the bindings; throws FlowErrors a person can act on. */
export function prepareRun(request: CodeRunRequest): PreparedRun {
  const bindingNames = Object.keys(request.bindings)
  for (const name of bindingNames) {
    if (!IDENTIFIER.test(name) || RESERVED.has(name)) {
      throw new FlowError('INTERNAL', `"${name}" cannot be the name of a sandbox binding.`)
    }
  }
  let bindingsJson: string | undefined
  try {
    bindingsJson = JSON.stringify(request.bindings)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new FlowError(
      'SANDBOX_ERROR',
      `The code's inputs cannot be passed to the sandbox as JSON: ${reason}`,
      {
        cause: error,
      },
    )
  }
  return {
    code: request.code,
    bindingNames,
    bindingsJson: bindingsJson ?? '{}',
    timeoutMs: checkedTimeout(request.timeoutMs),
  }
}

/** Turns a worker's outcome into the port's result, or throws the matching FlowError. */
export function outcomeToResult(outcome: RunOutcome): CodeRunResult {
  if (outcome.ok) return { result: parseResult(outcome.resultJson), logs: outcome.logs }
  const details: Record<string, string | number> = {}
  if (outcome.line !== undefined) details.line = outcome.line
  if (outcome.column !== undefined) details.column = outcome.column
  // The console output up to the failure usually explains it; FlowError details hold primitives.
  if (outcome.logs.length > 0) details.logs = outcome.logs.join('\n')
  throw new FlowError(outcome.code, outcome.message, { details })
}

/** How deeply arrays and objects nest in JSON text: one pass, no recursion, strings skipped. */
export function jsonTextDepth(json: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < json.length; i += 1) {
    const c = json.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i += 1 // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, (depth += 1))
    else if (c === 0x5d || c === 0x7d) depth -= 1
  }
  return deepest
}

/**
 * Parses the JSON the VM produced. `__proto__` keys are dropped: JSON.parse makes them own data
 * properties, but a later Object.assign or merge on the host would turn them into a prototype.
 */
export function parseResult(json: string): unknown {
  const depth = jsonTextDepth(json)
  if (depth > SANDBOX_MAX_RESULT_DEPTH) {
    throw new FlowError(
      'SANDBOX_RESULT_TOO_DEEP',
      `The code returned a value nested ${depth} levels deep; at most ${SANDBOX_MAX_RESULT_DEPTH} levels can be kept. Return a flatter value (the parts you need, or JSON text).`,
      { details: { depth, max: SANDBOX_MAX_RESULT_DEPTH } },
    )
  }
  try {
    return JSON.parse(json, (key, value: unknown) => (key === '__proto__' ? undefined : value))
  } catch (error) {
    throw new FlowError('SANDBOX_BAD_RESULT', 'The sandbox returned a result that is not valid JSON.', {
      cause: error,
    })
  }
}
