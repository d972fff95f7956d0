/**
 * What the engine knows of a node type. Each `src/nodes/<type>/` folder builds one of these
 * from its zod schema and executor; the engine receives them as a registry and never imports
 * `nodes/` itself.
 */
import type { FlowNode } from './flow.ts'
import type { GuardAlert, RunEvent, Usage } from './events.ts'
import type { RunContext } from './context.ts'
import { TEMPLATE_MAX_DEPTH as MAX_SCAN_DEPTH } from '../defaults.ts'
import type { LoopBody } from './loopBody.ts'
import type { CallSink } from './callEvents.ts'

export interface ConfigIssue {
  /** Dot/bracket path inside the config, e.g. `tools[0].name`; '' for the whole config. */
  path: string
  /** Plain English (the CLI prints it). */
  message: string
  /** The UI's catalogue key for the message (e.g. `nodes:issues.promptMissing`), and its values. */
  key?: string
  params?: Record<string, string | number>
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: ConfigIssue[] }

/** Everything an executor gets for one run of one node. */
export interface NodeExecution<C> {
  node: FlowNode
  config: C
  /** Outputs of the node's direct and indirect upstream nodes, keyed by node id. */
  upstream: Readonly<Record<string, Record<string, unknown>>>
  /**
   * Outputs of the DIRECT upstream nodes only, keyed by node id (a Code node's `inputs`). For a
   * node run as a tool this also holds the caller's `inputs`. Always set by the runner; optional
   * so hand-built executions in tests stay short.
   */
  inputs?: Readonly<Record<string, Record<string, unknown>>>
  /**
   * The keys of `inputs` in the order of the node's incoming edges. A record's own key order
   * puts integer-like ids first, so a node whose result depends on edge order (merge `first`)
   * reads this instead. Optional like `inputs`.
   */
  inputOrder?: readonly string[]
  /**
   * Resolves `{{nodeId.path}}` references against `upstream` (lookup only, never evaluated).
   * `field` is the config path of the text (`prompt`, `headers[0].value`): a result over
   * `ctx.protection.templateMaxChars` throws TEMPLATE_TOO_LARGE naming it.
   */
  resolve(template: string, field: string): string
  ctx: RunContext
  /** Aborts when the run is stopped. */
  signal: AbortSignal
  emit: {
    /** Streams text into the node console. */
    chunk(text: string, channel?: 'output' | 'reasoning' | 'log'): void
    guard(alert: GuardAlert): void
    /**
     * Reports a model call or a tool call once it ended (callEvents.ts). Optional for
     * hand-built executions in tests; a host that keeps no record drops them.
     */
    call?: CallSink
    /**
     * Passes on an event of a flow this node runs (sub-flow), already placed under this node
     * (nesting.ts `throughSubflow`); the runner adds where this node is. Optional for hand-built
     * executions in tests.
     */
    forward?(event: RunEvent): void
  }
  /**
   * The node's body (a container type: the nodes whose `parentId` names it), run as a sub-graph
   * per iteration; undefined for other types. See loopBody.ts.
   */
  readonly body?: LoopBody
  /**
   * Runs another node of the flow with `inputs` as its upstream outputs (Agent `node` tools).
   * The node's own upstream outputs are visible too.
   */
  runNode(
    nodeId: string,
    inputs: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>
}

export interface NodeResult {
  output: Record<string, unknown>
  /** 'stopped' when a guard ended the node early with a partial answer. */
  status?: 'success' | 'stopped'
  usage?: Usage
  /**
   * Ids of this node's output ports (source handles) whose branch is not taken this run (a
   * `condition`'s unchosen cases): the scheduler applies the not-taken rule to their edges.
   * Absent or empty: every port is taken.
   */
  notTaken?: readonly string[]
}

/** The handle id of a node's only input, and of its only output. */
export const DEFAULT_INPUT_PORT = 'in'
export const DEFAULT_OUTPUT_PORT = 'out'

/** One connection point of a node: a React Flow handle id, and what the canvas shows beside it. */
export interface PortSpec {
  id: string
  /** Literal text (a case label a person typed). */
  label?: string
  /** A catalogue key, used when there is no literal `label`. */
  labelKey?: string
}

/** A node's input (target) and output (source) ports; an empty list means no handle. */
export interface NodePorts {
  inputs: readonly PortSpec[]
  outputs: readonly PortSpec[]
}

/** One input `in` and one output `out`: what a node type has unless it says otherwise. */
export const DEFAULT_PORTS: NodePorts = {
  inputs: [{ id: DEFAULT_INPUT_PORT }],
  outputs: [{ id: DEFAULT_OUTPUT_PORT }],
}

export interface EngineNodeType {
  readonly type: string
  /** False for notes and unsupported placeholders: the runner never executes them. */
  readonly executable: boolean
  /**
   * True for a type that joins branches (`merge`): it starts when every input finished or is not
   * taken and at least one finished, instead of needing a taken edge from every upstream node.
   */
  readonly joinsBranches: boolean
  /**
   * True for a type whose body is the nodes with `parentId` naming it (`loop`): the scheduler
   * leaves those nodes to it, and the executor runs them through `NodeExecution.body`.
   */
  readonly container: boolean
  /** Its ports for a config that parsed (condition: one output per case plus `else`). */
  ports(config: unknown): NodePorts
  parseConfig(raw: unknown): ParseResult<unknown>
  /** Output field names, for preflight of `{{ref}}`s; undefined when they depend on run data. */
  outputs(config: unknown): readonly string[] | undefined
  /**
   * JSON Schemas of output fields whose shape the config fixes (a model node's structured
   * `data`): preflight checks `{{id.data.field}}` against them, the inspector offers their fields.
   */
  fieldSchemas?(config: unknown): Readonly<Record<string, unknown>> | undefined
  /**
   * Required settings left empty in a config that parsed (e.g. an LLM node without a prompt):
   * preflight reports them as MISSING_CONFIG and the runner fails the node with that code.
   */
  check?(config: unknown): readonly ConfigIssue[]
  /**
   * The config strings that are resolved as `{{ref}}` templates, for preflight. Undefined means
   * every string in the config (the default of `defineNodeType`).
   */
  templates?(config: unknown): readonly string[]
  /**
   * Ids of the nodes this node may run through `runNode` (Agent `node` tools). Such a node, when
   * no wire touches it, is tool-only: the scheduler does not run it on its own, and preflight lets
   * it read the caller's arguments as `{{args.x}}` (TOOL_ARGS_REF).
   */
  toolTargets?(config: unknown): readonly string[]
  /**
   * The id of the flow this node runs as one step (`subflow`), '' when none is picked yet.
   * Preflight follows it through `PreflightOptions.flows` (missing flow, recursion, depth) and
   * takes the node's output fields from the called flow's Output keys.
   */
  callsFlow?(config: unknown): string
  /**
   * True when the same inputs may give another result (a model sampling at temperature > 0):
   * such a node's earlier result is reused only when pinned or asked (reuse.ts).
   */
  varies?(config: unknown): boolean
  execute(exec: NodeExecution<unknown>): Promise<NodeResult>
}

export type NodeRegistry = ReadonlyMap<string, EngineNodeType>

export interface NodeTypeSpec<C> {
  type: string
  executable?: boolean
  /** See EngineNodeType.joinsBranches; default false. */
  joinsBranches?: boolean
  /** See EngineNodeType.container; default false. */
  container?: boolean
  /** See EngineNodeType.ports; default DEFAULT_PORTS. A fixed list may be given as is. */
  ports?: NodePorts | ((config: C) => NodePorts)
  parseConfig(raw: unknown): ParseResult<C>
  outputs?(config: C): readonly string[] | undefined
  /** See EngineNodeType.fieldSchemas. */
  fieldSchemas?(config: C): Readonly<Record<string, unknown>> | undefined
  /** See EngineNodeType.check. */
  check?(config: C): readonly ConfigIssue[]
  /** See EngineNodeType.templates; defaults to every string in the config. */
  templates?(config: C): readonly string[]
  /** See EngineNodeType.toolTargets. */
  toolTargets?(config: C): readonly string[]
  /** See EngineNodeType.callsFlow. */
  callsFlow?(config: C): string
  /** See EngineNodeType.varies. */
  varies?(config: C): boolean
  execute(exec: NodeExecution<C>): Promise<NodeResult>
}

/**
 * Erases a node type's config type for the registry. The runner always passes the value that
 * the same type's `parseConfig` returned, which is what makes the narrowing below sound.
 */
export function defineNodeType<C>(spec: NodeTypeSpec<C>): EngineNodeType {
  const toolTargets = spec.toolTargets
  const callsFlow = spec.callsFlow
  const varies = spec.varies
  const fieldSchemas = spec.fieldSchemas
  return {
    ...(varies ? { varies: (config: unknown) => varies(config as C) } : {}),
    ...(fieldSchemas ? { fieldSchemas: (config: unknown) => fieldSchemas(config as C) } : {}),
    // Only types that can run other nodes get the hook, so the runner can skip parsing the rest.
    ...(toolTargets ? { toolTargets: (config: unknown) => toolTargets(config as C) } : {}),
    ...(callsFlow ? { callsFlow: (config: unknown) => callsFlow(config as C) } : {}),
    type: spec.type,
    executable: spec.executable ?? true,
    joinsBranches: spec.joinsBranches ?? false,
    container: spec.container ?? false,
    ports: (config) => {
      const ports = spec.ports ?? DEFAULT_PORTS
      return typeof ports === 'function' ? ports(config as C) : ports
    },
    parseConfig: (raw) => spec.parseConfig(raw),
    outputs: (config) => spec.outputs?.(config as C),
    check: (config) => spec.check?.(config as C) ?? [],
    templates: (config) => (spec.templates ? spec.templates(config as C) : collectStrings(config)),
    execute: (exec) => spec.execute(exec as NodeExecution<C>),
  }
}

/** Every string inside a JSON-like value, depth-first (the default template fields). */
export function collectStrings(value: unknown, out: string[] = [], depth = 0): string[] {
  // Configs are small JSON documents; the depth bound only guards against pathological input.
  if (depth > MAX_SCAN_DEPTH) return out
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out, depth + 1)
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) collectStrings(item, out, depth + 1)
  return out
}
