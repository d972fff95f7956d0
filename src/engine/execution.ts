/**
 * Running one node: parse and check its config, build its NodeExecution (template lookup,
 * console emitters, `runNode` for Agent tools) and call its executor. Shared by the scheduler
 * and by `runNode`, so a node run as a tool behaves exactly as in a flow run.
 */
import type { RunContext } from './context.ts'
import { FlowError } from './errors.ts'
import type { GuardAlert, RunEvent, UnstampedEvent } from './events.ts'
import { callEvent } from './callEvents.ts'
import type { FlowNode } from './flow.ts'
import type { EngineNodeType, NodeExecution, NodeResult } from './nodeType.ts'
import { keyedRecord } from './keyed.ts'
import { renderTemplate } from './templates.ts'
import type { LoopBody } from './loopBody.ts'

/** Node outputs keyed by node id. */
export type Outputs = Readonly<Record<string, Record<string, unknown>>>

/**
 * What an execution asks of whoever runs it: the scheduler implements this once for all its
 * nodes (prototype methods, so starting a node allocates no closures); `runNode` and tool runs
 * pass small adapters.
 */
export interface ExecutionHost {
  /** Outputs visible to `nodeId`'s templates and `upstream`: its ancestors (plus tool inputs). */
  visible(nodeId: string): Outputs
  /** Fast path for templates: the outputs of `ref` if `nodeId` may see it. */
  lookup(nodeId: string, ref: string): Record<string, unknown> | undefined
  chunk(nodeId: string, text: string, channel: 'output' | 'reasoning' | 'log'): void
  guard(nodeId: string, alert: GuardAlert): void
  /** A model or tool call of `nodeId` ended (callEvents.ts); absent: not recorded. */
  call?(nodeId: string, event: UnstampedEvent): void
  /**
   * Passes on an event of a flow `nodeId` runs (a sub-flow, already placed under `nodeId`), adding
   * where `nodeId` itself is; absent: such events are dropped (a node run on its own or as a tool).
   */
  forward?(nodeId: string, event: RunEvent): void
  runNode(
    nodeId: string,
    target: string,
    inputs: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>
  /** The body of a container node (loopBody.ts); undefined for other nodes and hosts. */
  body?(nodeId: string): LoopBody | undefined
}

/** Everything `executeNode` needs to run one node. */
export interface ExecutionParts {
  node: FlowNode
  type: EngineNodeType
  ctx: RunContext
  signal: AbortSignal
  /** Direct upstream outputs (the Code node's `inputs`). */
  inputs: Outputs
  /** The keys of `inputs` in incoming-edge order (see NodeExecution.inputOrder). */
  inputOrder?: readonly string[]
  host: ExecutionHost
}

/**
 * One node's NodeExecution. Everything an executor may not use (upstream map, resolver,
 * emitters) is built on first access: most nodes touch only a few of them.
 */
class Execution implements NodeExecution<unknown> {
  private upstreamCache: Outputs | undefined
  private resolveFn: NodeExecution<unknown>['resolve'] | undefined
  private emitters: NodeExecution<unknown>['emit'] | undefined
  private runNodeFn: NodeExecution<unknown>['runNode'] | undefined

  constructor(
    private readonly parts: ExecutionParts,
    readonly config: unknown,
  ) {}

  get node(): FlowNode {
    return this.parts.node
  }
  get ctx(): RunContext {
    return this.parts.ctx
  }
  get signal(): AbortSignal {
    return this.parts.signal
  }
  get inputs(): Outputs {
    return this.parts.inputs
  }
  get inputOrder(): readonly string[] {
    return this.parts.inputOrder ?? Object.keys(this.parts.inputs)
  }
  get upstream(): Outputs {
    this.upstreamCache ??= this.parts.host.visible(this.parts.node.id)
    return this.upstreamCache
  }
  get resolve(): NodeExecution<unknown>['resolve'] {
    const { host, node, ctx } = this.parts
    this.resolveFn ??= (template, field) =>
      renderTemplate(template, (ref) => host.lookup(node.id, ref), node.id, {
        field,
        maxChars: ctx.protection.templateMaxChars,
      })
    return this.resolveFn
  }
  get emit(): NodeExecution<unknown>['emit'] {
    const { host, node } = this.parts
    this.emitters ??= {
      chunk: (text, channel = 'output') => {
        if (text !== '') host.chunk(node.id, text, channel)
      },
      guard: (alert) => host.guard(node.id, alert),
      call: host.call ? (record) => host.call?.(node.id, callEvent(node.id, record)) : undefined,
      forward: (event) => host.forward?.(node.id, event),
    }
    return this.emitters
  }
  get body(): LoopBody | undefined {
    return this.parts.type.container ? this.parts.host.body?.(this.parts.node.id) : undefined
  }
  get runNode(): NodeExecution<unknown>['runNode'] {
    const { host, node } = this.parts
    this.runNodeFn ??= (target, inputs, signal) => host.runNode(node.id, target, inputs, signal)
    return this.runNodeFn
  }
}

/** Parses and checks the config; throws INVALID_CONFIG or MISSING_CONFIG with every issue. */
export function parseNodeConfig(node: FlowNode, type: EngineNodeType): unknown {
  const parsed = type.parseConfig(node.data.config)
  if (!parsed.ok) {
    const list = parsed.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
    throw new FlowError('INVALID_CONFIG', `The settings of "${node.id}" are not valid: ${list}`, {
      nodeId: node.id,
      details: { path: parsed.issues[0]?.path ?? '' },
    })
  }
  const missing = type.check?.(parsed.value) ?? []
  if (missing.length > 0) {
    throw new FlowError('MISSING_CONFIG', missing.map((i) => i.message).join(' '), {
      nodeId: node.id,
      details: { path: missing[0]?.path ?? '' },
    })
  }
  return parsed.value
}

/** Builds the execution and runs the executor (config errors reject like executor errors). */
export async function executeNode(parts: ExecutionParts): Promise<NodeResult> {
  const config = parseNodeConfig(parts.node, parts.type)
  if (parts.signal.aborted)
    throw new FlowError('CANCELLED', 'The run was stopped.', { nodeId: parts.node.id })
  return parts.type.execute(new Execution(parts, config))
}

/** Turns tool inputs into output records: objects are used as they are, other values wrapped. */
export function toOutputs(inputs: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const out = keyedRecord<Record<string, unknown>>()
  for (const [key, value] of Object.entries(inputs)) {
    out[key] =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { value }
  }
  return out
}
