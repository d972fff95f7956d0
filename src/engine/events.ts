/**
 * Typed run events. Every event is a plain JSON object with `type`, `runId` and a timestamp
 * `at` (ms since epoch, from the injected clock); node events carry `nodeId`.
 * `npx wardflow run --json` prints exactly these objects, one per line.
 */
import type { ChatMessage, ResponseFormat, ToolCall, ToolSpec } from './ports.ts'
import type { NodeCached } from './reuse.ts'

export interface Usage {
  prompt: number
  completion: number
  total: number
  /** True when any part was counted by the tokenizer instead of reported by the provider. */
  estimated: boolean
  /** Prompt tokens read from the provider's cache (part of `prompt`), when reported. */
  cachedPromptTokens?: number
  /** Reasoning tokens (part of `completion`), when reported. */
  reasoningTokens?: number
  /**
   * On `nodeFinish` of a node that called a model and on `runFinish` (engine/cost/runCost.ts):
   * USD of the priced calls, null when none of them had a known price. Absent: not counted.
   */
  costUsd?: number | null
  /** On `runFinish`: model calls whose price was not known (not in `costUsd`). */
  unpricedCalls?: number
}

/**
 * One container a node event happened inside (docs/workflow-format.md, "Where an event
 * happened"): a `loop` node, in whose body the node ran at `iteration` (from 0), or a `subflow`
 * node, whose called flow the node belongs to. Each segment's `nodeId` is a node of the flow the
 * segments before it lead into (the flow that was run for the first one).
 */
export interface NestingSegment {
  nodeId: string
  kind: 'loop' | 'subflow'
  /** Only on `loop` segments. */
  iteration?: number
}

interface EventBase {
  runId: string
  at: number
  /**
   * Only on node events from inside a sub-flow (flow-control.md): the ids of the `subflow` nodes
   * that lead there, outermost first (`nodeId` is then a node of the innermost called flow).
   * Always the `subflow` segments of `nesting`, in order. Absent: a node of the flow that was run.
   */
  path?: string[]
  /**
   * Every container around the node, outermost first: loops (with the iteration) and sub-flow
   * calls, interleaved as they nest. Absent on events of the flow's own nodes outside any body.
   */
  nesting?: NestingSegment[]
}

export interface RunStartEvent extends EventBase {
  type: 'runStart'
  flowId: string
  nodeIds: string[]
}

export interface NodeStartEvent extends EventBase {
  type: 'nodeStart'
  nodeId: string
  /** The node's resolved inputs: upstream outputs keyed by node id. */
  inputs: Record<string, unknown>
}

export interface NodeChunkEvent extends EventBase {
  type: 'nodeChunk'
  nodeId: string
  text: string
  channel: 'output' | 'reasoning' | 'log'
}

export type GuardLayer = 'budget' | 'loop' | 'watchdog' | 'iterations'
export type GuardLevel = 'hint' | 'trip'

/**
 * What found a loop: a tool call repeated (`repeat`) or a cycle of calls (`cycle`), a reply whose
 * text repeats itself (`content`), agent turns with neither text nor tool calls (`empty`) or
 * tool-less turns that do not end the loop (`monologue`).
 */
export const LOOP_DETECTORS = ['repeat', 'cycle', 'content', 'empty', 'monologue'] as const
export type LoopDetector = (typeof LOOP_DETECTORS)[number]

/**
 * The fields of the other layers, absent: reading `event.detector` on any guard event stays
 * valid (undefined), so consumers written before the union keep compiling and working.
 */
type Absent<K extends string> = { [P in K]?: undefined }
type GuardField = 'detector' | 'tool' | 'count' | 'total' | 'budget' | 'phase'

/** What every guard event has; each layer adds its own fields (a union discriminated by `layer`). */
interface GuardEventBase extends EventBase {
  type: 'guard'
  nodeId: string
  level: GuardLevel
  /** The exact console line (docs/guard.md). */
  message: string
}

/** Layer 2: the loop breaker (tool calls), the degenerate-text guard and the turn watch. */
export interface LoopGuardEvent
  extends GuardEventBase, Absent<Exclude<GuardField, 'detector' | 'tool' | 'count'>> {
  layer: 'loop'
  /** Absent only in records saved before detectors were named. */
  detector?: LoopDetector
  /** The tool of a repeat or cycle alert. */
  tool?: string
  /** Identical calls, cycle laps, occurrences of the repeated text, or turns in a row. */
  count?: number
}

/** Layer 1: the token budget. */
export interface BudgetGuardEvent
  extends GuardEventBase, Absent<Exclude<GuardField, 'total' | 'budget' | 'phase'>> {
  layer: 'budget'
  total?: number
  budget?: number
  phase?: 'before-call' | 'after-call'
  /** 'run': the whole-run budget (engine/cost/ledger.ts); absent: the Agent's own budget. */
  scope?: 'run'
  /** What `total` and `budget` count for a run budget: tokens or US dollars. */
  unit?: 'tokens' | 'usd'
}

/** Layer 3: a tool that timed out. */
export interface WatchdogGuardEvent extends GuardEventBase, Absent<Exclude<GuardField, 'tool'>> {
  layer: 'watchdog'
  tool?: string
}

/** Layer 3: the iteration cap. */
export interface IterationsGuardEvent extends GuardEventBase, Absent<Exclude<GuardField, 'count'>> {
  layer: 'iterations'
  count?: number
}

export type GuardEvent = LoopGuardEvent | BudgetGuardEvent | WatchdogGuardEvent | IterationsGuardEvent

export interface NodeFinishEvent extends EventBase {
  type: 'nodeFinish'
  nodeId: string
  status: 'success' | 'stopped'
  output: Record<string, unknown>
  durationMs: number
  usage?: Usage
  /** Set when the node was not run and its output was reused (reuse.ts). */
  cached?: NodeCached
  /** The output ports not taken (a condition's other cases), so a later run can reuse it. */
  notTaken?: string[]
  /** The node's cache key (reuse.ts CacheKeys), when the run reuses unchanged results. */
  cacheKey?: string
}

export interface NodeErrorEvent extends EventBase {
  type: 'nodeError'
  nodeId: string
  code: string
  message: string
  durationMs: number
  /** What the failure kept for the person: `raw`, the last reply a structured-output node refused. */
  details?: { raw: string }
}

/**
 * Why a node never started: an upstream node failed, its branch was not taken (a condition chose
 * another case), the run was stopped, or the run was asked for other nodes only ("run this node").
 */
export type SkipReason = 'upstreamFailed' | 'notTaken' | 'stopped' | 'notRequested' | 'budget'

export interface NodeSkippedEvent extends EventBase {
  type: 'nodeSkipped'
  nodeId: string
  /** A SkipReason; records saved before reasons were codes hold plain English here instead. */
  reason: string
  /** Plain English (the CLI prints it). */
  message?: string
  /** Why, as data (so a UI can word it): the upstream node that failed, or the run was stopped. */
  failedNodeId?: string
  stopped?: true
}

/**
 * An Agent tool call that asks for approval (`"approval": "ask"`) waits for a decision
 * (flow-control.md, "MCP tools and approval"): `args` is the parsed arguments object.
 */
export interface ApprovalRequestEvent extends EventBase {
  type: 'approvalRequest'
  nodeId: string
  callId: string
  tool: string
  args: unknown
}

export type ApprovalDecision = 'approved' | 'rejected'
/** Who decided: a person, a rule (`--approve`, "always for this tool", no one to ask), or the clock. */
export type ApprovalBy = 'user' | 'policy' | 'timeout'

/** The decision on an `approvalRequest` of the same `callId` (always after it, same node). */
export interface ApprovalDecisionEvent extends EventBase {
  type: 'approvalDecision'
  nodeId: string
  callId: string
  decision: ApprovalDecision
  by: ApprovalBy
  /** Only when the person edited the arguments before approving: what the call ran with. */
  args?: unknown
}

export interface RunFinishEvent extends EventBase {
  type: 'runFinish'
  /** 'stopped': a guard stopped the whole run (`stopReason` says which); 'cancelled': Stop. */
  status: 'success' | 'error' | 'cancelled' | 'stopped'
  stopReason?: 'budget'
  usage: Usage
  durationMs: number
}

/**
 * One model call of a node, from the request to the reply's last chunk (callEvents.ts), sent
 * once the call ended. `usage` only as the provider reported it (absent: the node's usage has
 * the estimate). What was asked and answered is kept (keys scrubbed like every event); a trace
 * carries it only when the person opts in (engine/trace).
 */
export interface ModelCallEvent extends EventBase {
  type: 'modelCall'
  nodeId: string
  startedAt: number
  /** The provider id from settings ("openai", "demo"). */
  provider: string
  /** The model asked for ('' = the provider's default) and the one that answered. */
  model: string
  responseModel?: string
  usage?: { prompt: number; completion: number; cachedPrompt?: number; reasoning?: number }
  /**
   * Only when the provider reported no usage and the run has a budget: the tokenizer's count of
   * the request and reply, so a token budget still holds (its cost stays unpriced, never guessed).
   */
  estimatedUsage?: { prompt: number; completion: number }
  finishReason?: string
  /** The FlowError code when the call failed or was stopped. */
  error?: string
  request: {
    messages: ChatMessage[]
    tools?: string[]
    temperature?: number
    maxTokens?: number
  }
  reply?: { text: string; toolCalls: ToolCall[] }
  /**
   * What a replay of the call needs that `request` and `reply` leave out, so a saved run can be
   * turned into a cassette keyed exactly as `--record` keys it (cassette/fromRun.ts). Absent in
   * records saved before it was kept.
   */
  replay?: ModelCallReplay
}

export interface ModelCallReplay {
  /** The provider id the node names ('' = the default provider), not the one that answered. */
  providerId: string
  /** The tools in full (`request.tools` has their names only). */
  tools?: ToolSpec[]
  toolChoice?: 'auto' | 'none'
  responseFormat?: ResponseFormat
  /** How the provider took structured output: the request differs by it. */
  structuredOutput?: 'native' | 'prompt'
  /** The reply's reasoning text, which an estimated usage counts. */
  reasoning?: string
}

/** One tool call an Agent ran (not the ones the guard refused), sent once it ended. */
export interface ToolCallEvent extends EventBase {
  type: 'toolCall'
  nodeId: string
  startedAt: number
  tool: string
  callId: string
  /** The raw argument string the model sent. */
  arguments: string
  /** The observation the model got back; absent when the call threw. */
  result?: string
  error?: string
}

export type RunEvent =
  | RunStartEvent
  | NodeStartEvent
  | NodeChunkEvent
  | GuardEvent
  | NodeFinishEvent
  | NodeErrorEvent
  | NodeSkippedEvent
  | ModelCallEvent
  | ToolCallEvent
  | ApprovalRequestEvent
  | ApprovalDecisionEvent
  | RunFinishEvent

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/** An event before the runner stamps it with run id and time. */
export type UnstampedEvent = DistributiveOmit<RunEvent, 'runId' | 'at'>

/** A guard event before the runner stamps it with run id and time. */
export type GuardAlert = DistributiveOmit<GuardEvent, 'type' | 'runId' | 'at' | 'nodeId' | 'path' | 'nesting'>

export function emptyUsage(): Usage {
  return { prompt: 0, completion: 0, total: 0, estimated: false }
}

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    prompt: a.prompt + b.prompt,
    completion: a.completion + b.completion,
    total: a.total + b.total,
    estimated: a.estimated || b.estimated,
  }
  // The detail counts only when either side reported them, so plain usage stays four fields.
  if (a.cachedPromptTokens !== undefined || b.cachedPromptTokens !== undefined)
    sum.cachedPromptTokens = (a.cachedPromptTokens ?? 0) + (b.cachedPromptTokens ?? 0)
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined)
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0)
  return sum
}
