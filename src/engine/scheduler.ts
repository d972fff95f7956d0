/**
 * The run scheduler. Each node starts the moment its last upstream node finishes (no waves),
 * up to the concurrency cap; a failure skips only the failed node's descendants; Stop settles
 * everything at once without waiting for executors that are slow to notice the abort.
 *
 * Branches: each settled upstream node tells each child whether it was taken (it finished and at
 * least one edge to the child leaves from a port it did not list in `notTaken`). An ordinary
 * node is not taken as soon as one upstream node did not take it; a node that `joinsBranches`
 * waits for all of them and runs when at least one took it.
 */
import { RUN_CONCURRENCY } from '../defaults.ts'
import type { RunContext } from './context.ts'
import { errorEventDetails, FlowError, toFlowError } from './errors.ts'
import {
  addUsage,
  emptyUsage,
  type GuardAlert,
  type RunEvent,
  type RunFinishEvent,
  type SkipReason,
  type UnstampedEvent,
  type Usage,
} from './events.ts'
import { createLoopBody, type LoopBody } from './loopBody.ts'
import { executeNode, toOutputs, type ExecutionHost, type Outputs } from './execution.ts'
import { RunOutputs } from './runOutputs.ts'
import type { FlowNode } from './flow.ts'
import { descendants, type FlowGraph } from './graph.ts'
import type { EngineNodeType, NodeResult } from './nodeType.ts'
import { CacheKeys, reusableByKey, type NodeCached, type ReusedOutput, type RunOptions } from './reuse.ts'

/** A flow that passed the structural checks: executable nodes only, in topological order. */
export interface RunPlan {
  flowId: string
  order: string[]
  graph: FlowGraph
  /** Source handles of the edges parent -> child (graph.ts `sourcePorts`). */
  ports: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>
  nodes: ReadonlyMap<string, FlowNode>
  types: ReadonlyMap<string, EngineNodeType>
  /** Body plans of the containers (loopBody.ts), by container id; their nodes never run here. */
  bodies?: ReadonlyMap<string, RunPlan>
}

type State = 'waiting' | 'ready' | 'running' | 'done' | 'failed' | 'skipped'
type Emit = (event: RunEvent) => void

/**
 * One run of one plan. `start` emits `runStart` and launches the roots; every settled node
 * releases its children; `onEnd` fires right after `runFinish`. Used through `runFlow`.
 */
export class RunScheduler implements ExecutionHost {
  private readonly state = new Map<string, State>()
  private readonly waitingOn = new Map<string, number>()
  /** Upstream nodes that took the edge to this node (for joins: run when > 0). */
  private readonly takenFrom = new Map<string, number>()
  private readonly nodeStartedAt = new Map<string, number>()
  private readonly outputs: RunOutputs
  private readonly ready: string[] = []
  private readyHead = 0
  private running = 0
  private settled = 0
  private failed = false
  private finished = false
  private usage: Usage = emptyUsage()
  private startedAt = 0
  private readonly controller = new AbortController()
  private readonly cap: number
  private readonly onStop = (): void => this.stop()
  private readonly keys: CacheKeys | undefined

  constructor(
    private readonly plan: RunPlan,
    private readonly ctx: RunContext,
    private readonly emit: Emit,
    private readonly onEnd: () => void,
    private readonly options: RunOptions = {},
  ) {
    this.cap = Math.max(1, Math.floor(ctx.concurrency ?? RUN_CONCURRENCY))
    this.keys = options.cache ? new CacheKeys() : undefined
    this.outputs = new RunOutputs(plan.graph)
  }

  start(): void {
    this.startedAt = this.ctx.clock.now()
    this.push({ type: 'runStart', flowId: this.plan.flowId, nodeIds: [...this.plan.order] })
    for (const id of this.plan.order) {
      const count = this.plan.graph.parents.get(id)?.length ?? 0
      this.waitingOn.set(id, count)
      this.state.set(id, count === 0 ? 'ready' : 'waiting')
      if (count === 0) this.ready.push(id)
    }
    if (this.ctx.signal.aborted) return this.stop()
    const { only, reuse } = this.options
    if (only) {
      for (const id of this.plan.order)
        if (!only.has(id) && !reuse?.has(id))
          this.skip(id, 'notRequested', 'Not run: the run was asked for other nodes only.', {})
    }
    this.ctx.signal.addEventListener('abort', this.onStop, { once: true })
    this.pump()
    this.maybeFinish()
  }

  /** The consumer stopped listening: abort in-flight work quietly. */
  dispose(): void {
    if (this.finished) return
    this.finished = true
    this.ctx.signal.removeEventListener('abort', this.onStop)
    this.controller.abort()
  }

  /** Stamps a freshly built event in place (cheaper than copying it) and emits it. */
  private push(event: UnstampedEvent): void {
    const stamped = event as RunEvent
    stamped.runId = this.ctx.runId
    stamped.at = this.ctx.clock.now()
    this.emit(stamped)
  }

  private pump(): void {
    while (this.running < this.cap && this.readyHead < this.ready.length && !this.finished) {
      const id = this.ready[this.readyHead++] as string
      if (this.state.get(id) !== 'ready') continue
      // A reused node settles here, without recursion, so a long reused chain stays flat.
      const reused = this.reusedFor(id)
      if (reused) this.settle(id, { output: reused.output, notTaken: reused.notTaken }, 0, reused)
      else this.launch(id)
    }
  }

  /** The output `id` takes instead of running: given (pin, run from here) or found by key. */
  private reusedFor(id: string): ReusedOutput | undefined {
    const given = this.options.reuse?.get(id)
    const cache = this.options.cache
    if (!this.keys || !cache) return given
    const node = this.plan.nodes.get(id) as FlowNode
    const key = this.keys.key(node, this.plan.graph.parents.get(id) ?? [])
    if (given || id === this.options.target) return given
    const type = this.plan.types.get(id) as EngineNodeType
    if (!reusableByKey(type, node.data.config, cache)) return undefined
    return cache.lookup(key)
  }

  private launch(id: string): void {
    this.state.set(id, 'running')
    this.running++
    const started = this.ctx.clock.now()
    this.nodeStartedAt.set(id, started)
    const inputs = this.outputs.directInputs(id)
    this.push({ type: 'nodeStart', nodeId: id, inputs })
    executeNode({
      node: this.plan.nodes.get(id) as FlowNode,
      type: this.plan.types.get(id) as EngineNodeType,
      ctx: this.ctx,
      signal: this.controller.signal,
      inputs,
      inputOrder: this.outputs.inputOrder(id),
      host: this,
    }).then(
      (result) => this.succeed(id, started, result),
      (error: unknown) => this.fail(id, started, error),
    )
  }

  // --- ExecutionHost: what running nodes ask of the scheduler -----------------------------------

  visible(id: string): Outputs {
    return this.outputs.visible(id)
  }

  lookup(id: string, ref: string): Record<string, unknown> | undefined {
    return this.outputs.lookup(id, ref)
  }

  chunk(id: string, text: string, channel: 'output' | 'reasoning' | 'log'): void {
    if (this.isLive(id)) this.push({ type: 'nodeChunk', nodeId: id, text, channel })
  }

  guard(id: string, alert: GuardAlert): void {
    if (this.isLive(id)) this.push({ ...alert, type: 'guard', nodeId: id })
  }

  call(id: string, event: UnstampedEvent): void {
    // A call that a stop cut short still happened and may be billed: its event passes even after
    // its node ended, so the run's ledger (and a batch's) charges it (runFlow drops the rest).
    if (this.isLive(id) || event.type === 'modelCall') this.push(event)
  }

  /** A sub-flow's event, stamped by its own run and placed under `id`: passed on as it is. */
  forward(id: string, event: RunEvent): void {
    if (this.isLive(id)) this.emit(event)
  }

  body(id: string): LoopBody | undefined {
    const plan = this.plan.bodies?.get(id)
    if (!plan) return undefined
    return createLoopBody({
      loopId: id,
      plan,
      ctx: this.ctx,
      nesting: [],
      lookup: (ref) => this.lookup(id, ref),
      visible: () => this.visible(id),
      runNode: (_caller, target, inputs, signal) => this.runNode(id, target, inputs, signal),
      emit: (event) => this.push(event),
      forward: (event) => this.emit(event),
      live: () => this.isLive(id),
    })
  }

  private isLive(id: string): boolean {
    return !this.finished && this.state.get(id) === 'running'
  }

  private succeed(id: string, started: number, result: NodeResult): void {
    if (!this.isLive(id)) return
    this.running--
    this.settle(id, result, this.ctx.clock.now() - started)
    this.pump()
    this.maybeFinish()
  }

  /** `id` finished (ran, or `cached`): emits its `nodeFinish` and releases its children. */
  private settle(id: string, result: NodeResult, durationMs: number, cached?: NodeCached): void {
    this.state.set(id, 'done')
    this.settled++
    this.outputs.set(id, result.output)
    if (result.usage) this.usage = addUsage(this.usage, result.usage)
    const notTaken = result.notTaken ?? []
    const cacheKey = this.keys?.key(
      this.plan.nodes.get(id) as FlowNode,
      this.plan.graph.parents.get(id) ?? [],
    )
    this.keys?.settle(id, result.output)
    this.push({
      type: 'nodeFinish',
      nodeId: id,
      status: result.status ?? 'success',
      output: result.output,
      durationMs,
      ...(result.usage ? { usage: result.usage } : {}),
      ...(notTaken.length > 0 ? { notTaken: [...notTaken] } : {}),
      ...(cached
        ? { cached: { reason: cached.reason, ...(cached.fromRunId ? { fromRunId: cached.fromRunId } : {}) } }
        : {}),
      ...(cacheKey === undefined ? {} : { cacheKey }),
    })
    const byChild = this.plan.ports.get(id)
    for (const child of this.plan.graph.children.get(id) ?? []) {
      const ports = byChild?.get(child) ?? []
      this.release(child, notTaken.length === 0 || ports.some((port) => !notTaken.includes(port)))
    }
  }

  /** One upstream node of `child` settled, taking the edge to it or not. */
  private release(child: string, taken: boolean): void {
    if (this.state.get(child) !== 'waiting') return
    const left = (this.waitingOn.get(child) ?? 0) - 1
    this.waitingOn.set(child, left)
    if (taken) this.takenFrom.set(child, (this.takenFrom.get(child) ?? 0) + 1)
    const joins = this.plan.types.get(child)?.joinsBranches === true
    if (!taken && !joins) return this.notTaken(child)
    if (left > 0) return
    if (joins && (this.takenFrom.get(child) ?? 0) === 0) return this.notTaken(child)
    this.state.set(child, 'ready')
    this.ready.push(child)
  }

  /** `id` will never start: its branch was not taken; so neither are its children's edges from it. */
  private notTaken(id: string): void {
    this.skip(id, 'notTaken', 'Not taken: the branch leading here was not chosen.', {})
    for (const child of this.plan.graph.children.get(id) ?? []) this.release(child, false)
  }

  private fail(id: string, started: number, error: unknown): void {
    if (!this.isLive(id)) return
    const flowError = toFlowError(error, 'INTERNAL', id)
    this.state.set(id, 'failed')
    this.running--
    this.settled++
    this.failed = true
    this.push({
      type: 'nodeError',
      nodeId: id,
      code: flowError.code,
      message: flowError.message,
      durationMs: this.ctx.clock.now() - started,
      ...errorEventDetails(flowError),
    })
    const node = this.plan.nodes.get(id)
    const name = node?.data.label?.trim() || id
    const message = `Skipped because "${name}" failed.`
    const below = descendants(this.plan.graph, id)
    for (const other of this.plan.order) {
      if (below.has(other)) this.skip(other, 'upstreamFailed', message, { failedNodeId: id })
    }
    this.pump()
    this.maybeFinish()
  }

  private skip(
    id: string,
    reason: SkipReason,
    message: string,
    why: { failedNodeId?: string; stopped?: true },
  ): void {
    const state = this.state.get(id)
    if (state !== 'waiting' && state !== 'ready') return
    this.state.set(id, 'skipped')
    this.settled++
    this.push({ type: 'nodeSkipped', nodeId: id, reason, message, ...why })
  }

  private maybeFinish(): void {
    if (!this.finished && this.settled === this.plan.order.length)
      this.finish(this.failed ? 'error' : 'success')
  }

  /**
   * Ends the run at once: running nodes fail (CANCELLED for Stop, RUN_BUDGET when the whole-run
   * budget is spent), nodes not started are skipped, nothing new starts.
   */
  stop(reason: 'cancelled' | 'budget' = 'cancelled'): void {
    if (this.finished) return
    const now = this.ctx.clock.now()
    const budget = reason === 'budget'
    const message = budget ? 'The run budget is spent: the run was stopped.' : 'The run was stopped.'
    for (const id of this.plan.order) {
      if (this.state.get(id) !== 'running') continue
      this.state.set(id, 'failed')
      const durationMs = now - (this.nodeStartedAt.get(id) ?? now)
      const code = budget ? 'RUN_BUDGET' : 'CANCELLED'
      this.push({ type: 'nodeError', nodeId: id, code, message, durationMs })
    }
    for (const id of this.plan.order)
      if (budget) this.skip(id, 'budget', 'Not run: the run budget is spent.', {})
      else this.skip(id, 'stopped', message, { stopped: true })
    this.finish(budget ? 'stopped' : 'cancelled', budget ? 'budget' : undefined)
  }

  private finish(status: RunFinishEvent['status'], stopReason?: RunFinishEvent['stopReason']): void {
    this.push({
      type: 'runFinish',
      status,
      ...(stopReason ? { stopReason } : {}),
      usage: this.usage,
      durationMs: this.ctx.clock.now() - this.startedAt,
    })
    this.finished = true
    this.ctx.signal.removeEventListener('abort', this.onStop)
    // Anything still running (e.g. an executor that ignored Stop) is told to give up.
    this.controller.abort()
    this.onEnd()
  }

  /** Agent `node` tools: run another node with the caller's inputs added to what it can see. */
  async runNode(
    caller: string,
    target: string,
    toolInputs: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const node = this.plan.nodes.get(target)
    const type = this.plan.types.get(target)
    if (!node || !type) {
      throw new FlowError('TOOL_NOT_FOUND', `There is no runnable node "${target}" in this flow.`, {
        nodeId: caller,
      })
    }
    const extra = toOutputs(toolInputs)
    const toolSignal = AbortSignal.any([signal, this.controller.signal])
    const ancestors = this.outputs.ancestorsOf(target)
    const result = await executeNode({
      node,
      type,
      ctx: this.ctx,
      signal: toolSignal,
      inputs: Object.assign(this.outputs.directInputs(target), extra),
      host: {
        visible: () => Object.assign(this.visible(target), extra),
        lookup: (_id, ref) =>
          Object.hasOwn(extra, ref) ? extra[ref] : ancestors.has(ref) ? this.outputs.get(ref) : undefined,
        // A node run as a tool has no console of its own; the caller reports the observation.
        chunk: () => undefined,
        guard: () => undefined,
        runNode: async () => {
          throw new FlowError('TOOL_NOT_FOUND', 'A node run as a tool cannot run other nodes.', {
            nodeId: target,
          })
        },
      },
    })
    if (result.usage && !this.finished) this.usage = addUsage(this.usage, result.usage)
    return result.output
  }
}
