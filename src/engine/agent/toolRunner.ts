/**
 * Runs one tool call for the agent loop and turns every outcome into the observation the model
 * receives: unknown tool, arguments that are not JSON or do not fit the schema, a tool error, or
 * a tool that outlived its watchdog. Only a stopped run escapes as an error (CANCELLED).
 */
import { FlowError } from '../errors.ts'
import { AGENT_SCHEMA_MAX_PROBLEMS } from '../../defaults.ts'
import type { Clock, SchemaValidator, ToolCall } from '../ports.ts'
import type { ToolApprover } from '../approval.ts'
import {
  DECLINED_OBSERVATION,
  invalidArgsObservation,
  toolErrorObservation,
  toolNotFoundObservation,
  toolTimeoutMessage,
  watchdogMessage,
} from './messages.ts'
import type { AgentEmit, AgentTool } from './types.ts'

export interface ToolRunContext {
  tools: ReadonlyMap<string, AgentTool>
  clock: Clock
  validator: SchemaValidator
  signal: AbortSignal
  emit: AgentEmit
  /** Decides calls of tools that ask (AgentTool.approval); absent: they are declined. */
  approve?: ToolApprover
}

const TIMED_OUT = Symbol('timed out')

function cancelled(): FlowError {
  return new FlowError('CANCELLED', 'The run was stopped.')
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function isTimeout(error: unknown): boolean {
  if (error instanceof FlowError) return error.code === 'SANDBOX_TIMEOUT' || error.code === 'HTTP_TIMEOUT'
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TimeoutError'
}

type Parsed = { ok: true; value: unknown } | { ok: false; problem: string }

/** Models send '' for a tool without parameters; that means `{}`. */
function parseArguments(raw: string): Parsed {
  if (raw.trim() === '') return { ok: true, value: {} }
  try {
    return { ok: true, value: JSON.parse(raw) as unknown }
  } catch (error) {
    return { ok: false, problem: `arguments are not valid JSON (${errorMessage(error)})` }
  }
}

/** The observation for `call`. Throws only CANCELLED, when the run is stopped. */
export async function runToolCall(call: ToolCall, ctx: ToolRunContext): Promise<string> {
  const tool = ctx.tools.get(call.name)
  if (!tool) return toolNotFoundObservation(call.name)
  const parsed = parseArguments(call.arguments)
  if (!parsed.ok) return invalidArgsObservation(call.name, [parsed.problem])
  // Lenient: a schema the validator cannot read lets the call through rather than blocking a
  // working tool (an MCP server's unresolvable $ref, a pattern JavaScript cannot compile).
  const problems = await checkArguments(tool, parsed.value, ctx)
  if (problems.length > 0) return invalidArgsObservation(call.name, problems)
  if (tool.approval !== 'ask') return runWithWatchdog(tool, parsed.value, ctx)
  // Only a call that could run is asked about; the person may change its arguments.
  if (!ctx.approve) return DECLINED_OBSERVATION
  const approval = await ctx.approve({ callId: call.id, tool: call.name, args: parsed.value })
  if (approval.decision === 'rejected') return DECLINED_OBSERVATION
  if (approval.args !== parsed.value) {
    const edited = await checkArguments(tool, approval.args, ctx)
    if (edited.length > 0) return invalidArgsObservation(call.name, edited)
  }
  return runWithWatchdog(tool, approval.args, ctx)
}

function checkArguments(tool: AgentTool, value: unknown, ctx: ToolRunContext): Promise<string[]> {
  return ctx.validator.validate({
    value,
    schema: tool.spec.parameters,
    root: 'arguments',
    maxProblems: AGENT_SCHEMA_MAX_PROBLEMS,
    lenient: true,
  })
}

async function runWithWatchdog(tool: AgentTool, args: unknown, ctx: ToolRunContext): Promise<string> {
  const { clock, signal, emit } = ctx
  const name = tool.spec.name
  if (signal.aborted) throw cancelled()
  const toolStop = new AbortController()
  const timerStop = new AbortController()
  let onAbort = (): void => undefined
  const stopped = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      toolStop.abort(signal.reason)
      reject(cancelled())
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
  // A sleep cancelled after the race is over must not surface as an unhandled rejection.
  const watchdog = clock.sleep(tool.timeoutMs, timerStop.signal).then(
    () => TIMED_OUT,
    () => new Promise<never>(() => undefined),
  )
  const watchdogTrip = (detail: string): void =>
    emit.guard({ layer: 'watchdog', level: 'trip', tool: name, message: watchdogMessage(name, detail) })
  try {
    const outcome = await Promise.race([tool.run(args, toolStop.signal), watchdog, stopped])
    if (outcome === TIMED_OUT) {
      const detail = toolTimeoutMessage(name, tool.timeoutMs)
      toolStop.abort(new FlowError('INTERNAL', detail))
      watchdogTrip(detail)
      return toolErrorObservation(name, detail)
    }
    return typeof outcome === 'string' ? outcome : String(outcome)
  } catch (error) {
    if (signal.aborted) throw cancelled()
    if (isTimeout(error)) watchdogTrip(errorMessage(error))
    return toolErrorObservation(name, errorMessage(error))
  } finally {
    timerStop.abort()
    signal.removeEventListener('abort', onAbort)
  }
}
