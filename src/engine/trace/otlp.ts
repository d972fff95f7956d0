/**
 * A run's events as OpenTelemetry spans in OTLP JSON (flow-control.md "Traces"; the protobuf
 * JSON mapping of `ExportTraceServiceRequest`, which OTLP/HTTP JSON collectors take as it is).
 * One span per run, node, model call and tool call, each under the one it happened in: nodes
 * under the run, a loop body's nodes under the loop, a called flow's nodes under the sub-flow
 * node, calls under their node. Ids are derived from the run id (the same run, the same trace).
 * Prompts, replies, tool arguments and results, node inputs and outputs are put in only with
 * `content: true`; the secrets given are scrubbed from the whole result either way.
 * Pure: no clock, no randomness; the browser loads it with the History tab's download.
 */
import { TRACE_CONTENT_MAX_CHARS } from '../../defaults.ts'
import type { GuardEvent, ModelCallEvent, RunEvent, ToolCallEvent } from '../events.ts'
import { nestingKey, nodeStreamKey } from '../nesting.ts'
import { scrubSecrets } from '../secretScrub.ts'
import { spanIdOf, traceIdOf } from './ids.ts'
import type { OtlpAttribute, OtlpSpan, OtlpTrace, OtlpValue } from './types.ts'

/** OTLP span kinds and status codes (trace.proto). */
const SPAN_KIND = { internal: 1, client: 3 } as const
const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const

export interface TraceOptions {
  /** Put prompts, replies, tool arguments/results and node inputs/outputs in (opt-in). */
  content?: boolean
  /** Texts that must never appear (API keys, secret header values): replaced everywhere. */
  secrets?: readonly string[]
  /** Node types by node id (the flow's and the called flows'): `wardflow.node.type`. */
  nodeTypes?: Readonly<Record<string, string>>
  /** A name for the run span ("run <flowName>"); the flow id when absent. */
  flowName?: string
  /** The record's status when it says more than the events (`interrupted`). */
  status?: string
  /** `service.version` of the resource. */
  version?: string
}

const SCOPE = { name: 'wardflow', version: '1' }

function value(v: string | number | boolean | readonly string[]): OtlpValue {
  if (typeof v === 'string') return { stringValue: v }
  if (typeof v === 'boolean') return { boolValue: v }
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v }
  return { arrayValue: { values: v.map((s) => ({ stringValue: s })) } }
}

class Attributes {
  readonly list: OtlpAttribute[] = []
  set(key: string, v: string | number | boolean | readonly string[] | undefined): this {
    if (v !== undefined) this.list.push({ key, value: value(v) })
    return this
  }
}

/** Milliseconds since the epoch as OTLP's nanosecond string (integer µs, so no float drift). */
function unixNano(ms: number): string {
  const micros = Math.round(ms * 1000)
  return micros <= 0 ? '0' : `${micros}000`
}

function cut(text: string): string {
  if (text.length <= TRACE_CONTENT_MAX_CHARS) return text
  return `${text.slice(0, TRACE_CONTENT_MAX_CHARS)}… [${text.length - TRACE_CONTENT_MAX_CHARS} more characters]`
}

function json(v: unknown): string {
  return cut(JSON.stringify(v) ?? 'null')
}

interface Open {
  span: OtlpSpan
  startMs: number
  endMs?: number
  attributes: Attributes
}

class TraceBuilder {
  private readonly traceId: string
  private readonly spans: Open[] = []
  /** The latest span of each node place (nodeStreamKey), open or ended. */
  private readonly nodes = new Map<string, Open>()
  private readonly seen = new Map<string, number>()
  private run: Open | undefined
  private lastAt = 0

  constructor(
    private readonly runId: string,
    private readonly options: TraceOptions,
  ) {
    this.traceId = traceIdOf(runId)
  }

  private open(key: string, name: string, kind: number, startMs: number, parent: Open | undefined): Open {
    const n = (this.seen.get(key) ?? 0) + 1
    this.seen.set(key, n)
    const attributes = new Attributes()
    const span: OtlpSpan = {
      traceId: this.traceId,
      spanId: spanIdOf(this.runId, n === 1 ? key : `${key}#${n}`),
      name,
      kind,
      startTimeUnixNano: '',
      endTimeUnixNano: '',
      attributes: attributes.list,
      events: [],
      status: { code: STATUS_CODE.unset },
    }
    if (parent) span.parentSpanId = parent.span.spanId
    const open: Open = { span, startMs, attributes }
    this.spans.push(open)
    return open
  }

  private parentOf(event: { nesting?: RunEvent['nesting'] }): Open | undefined {
    const nesting = event.nesting ?? []
    if (nesting.length === 0) return this.run
    const outer = nesting[nesting.length - 1] as NonNullable<RunEvent['nesting']>[number]
    return this.nodes.get(nestingKey(nesting.slice(0, -1)) + outer.nodeId) ?? this.run
  }

  private nodeSpan(event: RunEvent & { nodeId: string }, at: number): Open {
    const key = nodeStreamKey(event)
    const known = this.nodes.get(key)
    if (known && known.endMs === undefined) return known
    const type = this.options.nodeTypes?.[event.nodeId] ?? 'unknown'
    const open = this.open(
      `node:${key}`,
      `node ${event.nodeId}`,
      SPAN_KIND.internal,
      at,
      this.parentOf(event),
    )
    open.attributes.set('wardflow.node.id', event.nodeId).set('wardflow.node.type', type)
    const loop = [...(event.nesting ?? [])].reverse().find((s) => s.kind === 'loop')
    if (loop)
      open.attributes.set('wardflow.loop.id', loop.nodeId).set('wardflow.loop.iteration', loop.iteration ?? 0)
    if (event.path && event.path.length > 0) open.attributes.set('wardflow.subflow.path', event.path)
    this.nodes.set(key, open)
    return open
  }

  add(event: RunEvent): void {
    this.lastAt = Math.max(this.lastAt, event.at)
    switch (event.type) {
      case 'runStart': {
        const name = `run ${this.options.flowName ?? event.flowId}`
        this.run = this.open('run', name, SPAN_KIND.internal, event.at, undefined)
        this.run.attributes.set('wardflow.run.id', event.runId).set('wardflow.flow.id', event.flowId)
        return
      }
      case 'nodeStart': {
        const open = this.nodeSpan(event, event.at)
        if (this.options.content) open.attributes.set('wardflow.node.inputs', json(event.inputs))
        return
      }
      case 'nodeFinish': {
        const open = this.nodeSpan(event, event.at - event.durationMs)
        const a = open.attributes
        a.set('wardflow.node.status', event.status).set('wardflow.node.duration_ms', event.durationMs)
        if (event.cached)
          a.set('wardflow.node.cached', event.cached.reason).set(
            'wardflow.node.cached_from',
            event.cached.fromRunId,
          )
        if (event.usage) {
          a.set('wardflow.usage.input_tokens', event.usage.prompt)
          a.set('wardflow.usage.output_tokens', event.usage.completion)
          a.set('wardflow.usage.estimated', event.usage.estimated)
        }
        if (this.options.content) a.set('wardflow.node.output', json(event.output))
        open.span.status = { code: STATUS_CODE.ok }
        open.endMs = event.at
        return
      }
      case 'nodeError': {
        const open = this.nodeSpan(event, event.at - event.durationMs)
        open.attributes.set('wardflow.node.status', 'error').set('error.type', event.code)
        open.span.status = { code: STATUS_CODE.error, message: event.message }
        open.endMs = event.at
        return
      }
      case 'nodeSkipped': {
        const open = this.nodeSpan(event, event.at)
        open.attributes.set('wardflow.node.status', 'skipped').set('wardflow.node.skip_reason', event.reason)
        open.endMs = event.at
        return
      }
      case 'guard':
        return this.guard(event)
      case 'modelCall':
        return this.modelCall(event)
      case 'toolCall':
        return this.toolCall(event)
      case 'runFinish': {
        if (!this.run) return
        const a = this.run.attributes
        a.set('wardflow.run.status', event.status)
        a.set('gen_ai.usage.input_tokens', event.usage.prompt).set(
          'gen_ai.usage.output_tokens',
          event.usage.completion,
        )
        a.set('wardflow.usage.estimated', event.usage.estimated)
        this.run.span.status = { code: event.status === 'error' ? STATUS_CODE.error : STATUS_CODE.ok }
        this.run.endMs = event.at
        return
      }
      default:
        return
    }
  }

  private guard(event: GuardEvent): void {
    const open = this.nodeSpan(event, event.at)
    const a = new Attributes()
      .set('wardflow.guard.layer', event.layer)
      .set('wardflow.guard.level', event.level)
    a.set('wardflow.guard.detector', event.detector).set('wardflow.guard.tool', event.tool)
    a.set('wardflow.guard.count', event.count).set('wardflow.guard.message', event.message)
    open.span.events.push({ timeUnixNano: unixNano(event.at), name: 'wardflow.guard', attributes: a.list })
  }

  private modelCall(event: ModelCallEvent): void {
    const node = this.nodeSpan(event, event.startedAt)
    const model = event.model || event.responseModel || ''
    const key = `model:${nodeStreamKey(event)}`
    const open = this.open(key, model ? `chat ${model}` : 'chat', SPAN_KIND.client, event.startedAt, node)
    open.endMs = event.at
    const a = open.attributes
    a.set('gen_ai.operation.name', 'chat')
      .set('gen_ai.system', event.provider)
      .set('gen_ai.provider.name', event.provider)
    a.set('gen_ai.request.model', event.model || undefined).set('gen_ai.response.model', event.responseModel)
    a.set('gen_ai.request.temperature', event.request.temperature).set(
      'gen_ai.request.max_tokens',
      event.request.maxTokens,
    )
    if (event.usage) {
      a.set('gen_ai.usage.input_tokens', event.usage.prompt).set(
        'gen_ai.usage.output_tokens',
        event.usage.completion,
      )
    }
    if (event.finishReason) a.set('gen_ai.response.finish_reasons', [event.finishReason])
    if (event.request.tools) a.set('wardflow.request.tools', event.request.tools)
    a.set('wardflow.node.id', event.nodeId)
    if (this.options.content) {
      a.set('gen_ai.input.messages', json(event.request.messages))
      if (event.reply) a.set('gen_ai.output.messages', json([{ role: 'assistant', ...event.reply }]))
    }
    if (event.error) {
      a.set('error.type', event.error)
      open.span.status = { code: STATUS_CODE.error, message: event.error }
    } else open.span.status = { code: STATUS_CODE.ok }
  }

  private toolCall(event: ToolCallEvent): void {
    const node = this.nodeSpan(event, event.startedAt)
    const open = this.open(
      `tool:${nodeStreamKey(event)}`,
      `execute_tool ${event.tool}`,
      SPAN_KIND.internal,
      event.startedAt,
      node,
    )
    open.endMs = event.at
    const a = open.attributes
    a.set('gen_ai.operation.name', 'execute_tool')
      .set('gen_ai.tool.name', event.tool)
      .set('gen_ai.tool.call.id', event.callId)
    a.set('wardflow.node.id', event.nodeId)
    if (this.options.content) {
      a.set('gen_ai.tool.call.arguments', cut(event.arguments))
      if (event.result !== undefined) a.set('gen_ai.tool.call.result', cut(event.result))
    }
    if (event.error) {
      a.set('error.type', event.error)
      open.span.status = { code: STATUS_CODE.error, message: event.error }
    } else open.span.status = { code: STATUS_CODE.ok }
  }

  /** Ends what never ended (an interrupted run) at the last event, and nests every time. */
  finish(): OtlpSpan[] {
    if (this.run && this.options.status) this.run.attributes.set('wardflow.run.status', this.options.status)
    if (this.run && this.options.status === 'interrupted') this.run.span.status = { code: STATUS_CODE.unset }
    const byId = new Map<string, Open>()
    for (const open of this.spans) byId.set(open.span.spanId, open)
    for (const open of this.spans) {
      let start = open.startMs
      let end = Math.max(open.endMs ?? this.lastAt, start)
      const parent = open.span.parentSpanId === undefined ? undefined : byId.get(open.span.parentSpanId)
      if (parent) {
        // Parents come first: their times are final here. Same-clock ms may disagree by one.
        start = Math.min(Math.max(start, parent.startMs), parent.endMs as number)
        end = Math.min(Math.max(end, start), parent.endMs as number)
      }
      open.startMs = start
      open.endMs = end
      open.span.startTimeUnixNano = unixNano(start)
      open.span.endTimeUnixNano = unixNano(end)
    }
    return this.spans.map((open) => open.span)
  }
}

/** The run's events (stamped, in order) as one OTLP JSON export request. */
export function runToOtlp(events: readonly RunEvent[], options: TraceOptions = {}): OtlpTrace {
  const runId = events[0]?.runId ?? 'run'
  const builder = new TraceBuilder(runId, options)
  for (const event of events) builder.add(event)
  const resource = new Attributes().set('service.name', 'wardflow').set('service.version', options.version)
  const trace: OtlpTrace = {
    resourceSpans: [
      { resource: { attributes: resource.list }, scopeSpans: [{ scope: SCOPE, spans: builder.finish() }] },
    ],
  }
  return scrubSecrets(trace, options.secrets ?? [])
}
