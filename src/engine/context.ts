/** The run context: every host ability the engine and executors use arrives through it. */
import {
  AGENT_MAX_ITERATIONS,
  AGENT_TOKEN_BUDGET,
  HTTP_TIMEOUT_MS,
  LOOP_CYCLE_DETECTION,
  LOOP_DETECTION_ENABLED,
  LOOP_PROGRESS_AWARE,
  LOOP_TRIP_AT,
  SANDBOX_TIMEOUT_MS,
  TEMPLATE_MAX_RESOLVED_CHARS,
  TEXT_LOOP_DETECTION_ENABLED,
} from '../defaults.ts'
import type {
  Clock,
  CodeRunner,
  FetchLike,
  ProviderResolver,
  SchemaValidator,
  TokenEstimator,
} from './ports.ts'
import type { FlowLookup, NestedRun } from './subflow.ts'
import type { KnowledgeSearch } from './knowledge.ts'
import type { ApprovalPort } from './approval.ts'
import type { McpPort } from './mcp.ts'
import type { PricingPort } from './cost/pricing.ts'
import type { RunLimits } from './cost/ledger.ts'
import type { RunBudget } from './cost/runBudget.ts'
import type { SharedRunBudget } from './cost/sharedBudget.ts'

/**
 * Runtime protection settings (docs/guard.md). The effective value for a node is
 * node config > these global settings > src/defaults.ts.
 */
export interface RuntimeProtection {
  loopDetectionEnabled: boolean
  loopDetectionThreshold: number
  progressAware: boolean
  cycleDetection: boolean
  /** Stop LLM and Agent replies that degenerate into repeating themselves (docs/guard.md). */
  textLoopDetection: boolean
  maxIterations: number
  maxTokenBudget: number
  sandboxTimeoutMs: number
  toolTimeoutMs: number
  /** Longest text a field may become once its references are filled in (TEMPLATE_TOO_LARGE). */
  templateMaxChars: number
}

export interface RunContext {
  runId: string
  clock: Clock
  fetch: FetchLike
  codeRunner: CodeRunner
  providers: ProviderResolver
  estimateTokens: TokenEstimator
  /** JSON Schema checks: Agent tool arguments and structured output. */
  validator: SchemaValidator
  /** Aborts the whole run (Stop). */
  signal: AbortSignal
  /** Global runtime protection settings. */
  protection: RuntimeProtection
  /**
   * Run inputs that override Input node values: `key` applies to every Input node with that key,
   * `nodeId.key` to one node.
   */
  inputs?: Readonly<Record<string, string>>
  /** Max nodes running at once; defaults to RUN_CONCURRENCY. */
  concurrency?: number
  /**
   * The address of the site the app is served from (the browser sets the page's base URL).
   * HTTP nodes and http tools resolve site-relative URLs (`./data/x.json`) against it; unset in
   * the CLI, where such URLs are refused with a message.
   */
  baseUrl?: string
  /**
   * The flows `subflow` nodes may call (the browser's saved flows, the flows a CLI file
   * carries). Unset: a `subflow` node fails with SUBFLOW_NOT_FOUND.
   */
  flows?: FlowLookup
  /** Knowledge bases `knowledge` nodes search. Unset: they fail with KNOWLEDGE_BASE_MISSING. */
  knowledge?: KnowledgeSearch
  /**
   * Decides Agent tool calls that ask for approval (approval.ts). Unset: such calls are
   * rejected (`by: "policy"`) and the model is told the user declined.
   */
  approval?: ApprovalPort
  /** How long an asked call waits for a decision; APPROVAL_TIMEOUT_MS when unset. */
  approvalTimeoutMs?: number
  /** MCP servers Agent `mcp` tools call (src/mcp/). Unset: such a tool fails its node (MCP_UNREACHABLE). */
  mcp?: McpPort
  /**
   * Prices model calls (engine/cost): each run's `nodeFinish`/`runFinish` usage gets `costUsd`.
   * Unset: every call is unpriced (costUsd null).
   */
  pricing?: PricingPort
  /** The host's default whole-run limits (settings); a flow's `metadata.limits` win over them. */
  runLimits?: RunLimits
  /** Limits the host was told explicitly (CLI flags): they win over the flow's. */
  runLimitsOverride?: RunLimits
  /** Set by the outermost `runFlow` (never by a host): the run's ledger, inherited by nested runs. */
  runBudget?: RunBudget
  /**
   * Set by a host that runs several flows against one budget (a batch's rows): the outermost run
   * charges its ledger instead of one of its own, and a trip in any of them stops them all.
   */
  sharedBudget?: SharedRunBudget
  /** Set by `runFlow` for its nodes (never by a host): where this run sits among sub-flows. */
  nested?: NestedRun
}

/** The protection settings a fresh install starts with. */
export function defaultProtection(): RuntimeProtection {
  return {
    loopDetectionEnabled: LOOP_DETECTION_ENABLED,
    loopDetectionThreshold: LOOP_TRIP_AT,
    progressAware: LOOP_PROGRESS_AWARE,
    cycleDetection: LOOP_CYCLE_DETECTION,
    textLoopDetection: TEXT_LOOP_DETECTION_ENABLED,
    maxIterations: AGENT_MAX_ITERATIONS,
    maxTokenBudget: AGENT_TOKEN_BUDGET,
    sandboxTimeoutMs: SANDBOX_TIMEOUT_MS,
    toolTimeoutMs: HTTP_TIMEOUT_MS,
    templateMaxChars: TEMPLATE_MAX_RESOLVED_CHARS,
  }
}

/**
 * Where a setting comes from when a node leaves it empty: the global settings (Settings ->
 * Runtime protection), the built-in default of src/defaults.ts (a setting with no global
 * counterpart), or the provider (nothing is sent, so the model server's own default applies).
 */
export type InheritSource = 'settings' | 'default' | 'provider'

/** The value an empty node field takes, and where it comes from. `value` is unset for 'provider'. */
export interface InheritedSetting<T = unknown> {
  value: T
  source: InheritSource
}

/**
 * What each protection setting is for a node that leaves it empty: the global setting when it
 * is given, else the built-in default. Executors resolve empty fields with this, and the
 * inspector shows it, so the two cannot disagree.
 */
export function inheritedProtection(global?: Partial<RuntimeProtection>): {
  [K in keyof RuntimeProtection]: InheritedSetting<RuntimeProtection[K]>
} {
  const base = defaultProtection()
  const pick = <K extends keyof RuntimeProtection>(key: K): InheritedSetting<RuntimeProtection[K]> => {
    const value = global?.[key]
    return value === undefined || value === null
      ? { value: base[key], source: 'default' }
      : { value: value as RuntimeProtection[K], source: 'settings' }
  }
  return {
    loopDetectionEnabled: pick('loopDetectionEnabled'),
    loopDetectionThreshold: pick('loopDetectionThreshold'),
    progressAware: pick('progressAware'),
    cycleDetection: pick('cycleDetection'),
    textLoopDetection: pick('textLoopDetection'),
    maxIterations: pick('maxIterations'),
    maxTokenBudget: pick('maxTokenBudget'),
    sandboxTimeoutMs: pick('sandboxTimeoutMs'),
    toolTimeoutMs: pick('toolTimeoutMs'),
    templateMaxChars: pick('templateMaxChars'),
  }
}
