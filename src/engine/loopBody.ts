/**
 * A container's body (flow-control.md, `loop`): the nodes whose `parentId` names the container,
 * run as a sub-graph once per iteration. The scheduler never runs them on its own; the container's
 * executor calls `LoopBody.run` with the iteration's scope, and this module runs the body nodes
 * (each as soon as its body parents settled), applies the not-taken rule inside the body, and
 * emits their events with the iteration's `nesting` segment (events.ts NestingSegment).
 */
import type { RunContext } from './context.ts'
import { errorEventDetails, FlowError, toFlowError } from './errors.ts'
import {
  addUsage,
  emptyUsage,
  type NestingSegment,
  type RunEvent,
  type UnstampedEvent,
  type Usage,
} from './events.ts'
import { executeNode, type ExecutionHost, type Outputs } from './execution.ts'
import { ancestors, buildGraph, sourcePorts, topologicalSort, type FlowShape } from './graph.ts'
import type { FlowNode } from './flow.ts'
import { keyedRecord } from './keyed.ts'
import type { EngineNodeType } from './nodeType.ts'
import { renderTemplate } from './templates.ts'
import { withinNesting } from './nesting.ts'
import type { RunPlan } from './scheduler.ts'

/** What `{{<loop id>.item}}`, `.index` and `.previous` read inside the body. */
export interface BodyScope {
  item?: unknown
  index: number
  previous: unknown
}

export interface IterationRun {
  /** Outputs of the body nodes that finished, by id. */
  outputs: ReadonlyMap<string, Record<string, unknown>>
  usage: Usage
}

export interface LoopBody {
  /** The body's nodes in run order; empty when the container has no body. */
  readonly nodeIds: readonly string[]
  /** Body nodes without a child in the body (an iteration's result is one of them). */
  readonly sinks: readonly string[]
  /** Runs the body once. Rejects with the first failed body node's error (its `nodeId`). */
  run(scope: BodyScope, signal: AbortSignal): Promise<IterationRun>
  /** Resolves a template of the container itself with its scope visible (`until` rules). */
  resolve(template: string, field: string, scope: BodyScope): string
}

/** What runs a body asks of whoever runs the container. */
export interface BodyParent {
  loopId: string
  plan: RunPlan
  ctx: RunContext
  /** The containers around the loop node itself (relative to this run), outermost first. */
  nesting: readonly NestingSegment[]
  /** The container's own view of the run: what it may read, and Agent tools. */
  lookup(ref: string): Record<string, unknown> | undefined
  visible(): Outputs
  runNode: ExecutionHost['runNode']
  /** Stamps and sends an event (dropped once the container is no longer running). */
  emit(event: UnstampedEvent): void
  /** Passes on an event a sub-flow node of the body got from its called flow (already stamped). */
  forward(event: RunEvent): void
  live(): boolean
}

/** The body plans of every container of a plan's node set, keyed by container id. */
export function planBodies(
  flow: { nodes: readonly FlowNode[]; edges: FlowShape['edges'] },
  flowId: string,
  nodes: ReadonlyMap<string, FlowNode>,
  types: ReadonlyMap<string, EngineNodeType>,
): Map<string, RunPlan> {
  const bodies = new Map<string, RunPlan>()
  for (const [id, type] of types) {
    if (!type.container) continue
    const members = new Set(flow.nodes.filter((n) => n.parentId === id && nodes.has(n.id)).map((n) => n.id))
    const graph = buildGraph(flow, (x) => members.has(x))
    const plan: RunPlan = {
      flowId,
      order: topologicalSort(graph).order,
      graph,
      ports: sourcePorts(flow, graph),
      nodes,
      types,
      bodies,
    }
    bodies.set(id, plan)
  }
  return bodies
}

type Settle =
  | { kind: 'done'; notTaken: readonly string[] }
  | { kind: 'notTaken' | 'failedBelow' | 'stopped' }
  | { kind: 'failed'; error: FlowError }

export function createLoopBody(parent: BodyParent): LoopBody {
  const { plan, loopId } = parent
  const above = new Map(plan.order.map((id) => [id, ancestors(plan.graph, id)]))
  const sinks = plan.order.filter((id) => (plan.graph.children.get(id)?.length ?? 0) === 0)
  const scopeRecord = (scope: BodyScope): Record<string, unknown> => ({
    item: scope.item ?? null,
    index: scope.index,
    previous: scope.previous ?? null,
  })
  return {
    nodeIds: plan.order,
    sinks,
    resolve: (template, field, scope) => {
      const own = scopeRecord(scope)
      return renderTemplate(template, (ref) => (ref === loopId ? own : parent.lookup(ref)), loopId, {
        field,
        maxChars: parent.ctx.protection.templateMaxChars,
      })
    },
    run: (scope, signal) => runIteration(parent, above, scopeRecord(scope), scope.index, signal),
  }
}

async function runIteration(
  parent: BodyParent,
  above: ReadonlyMap<string, ReadonlySet<string>>,
  own: Record<string, unknown>,
  iteration: number,
  signal: AbortSignal,
): Promise<IterationRun> {
  const { plan, loopId, ctx } = parent
  const outputs = new Map<string, Record<string, unknown>>()
  let usage = emptyUsage()
  const nesting: NestingSegment[] = [...parent.nesting, { nodeId: loopId, kind: 'loop', iteration }]
  const running = new Set<string>()
  const emit = (event: UnstampedEvent): void => {
    if (parent.live()) parent.emit(Object.assign(event, { nesting }))
  }
  const host: ExecutionHost = {
    lookup: (id, ref) =>
      ref === loopId ? own : above.get(id)?.has(ref) ? outputs.get(ref) : parent.lookup(ref),
    visible: (id) => {
      const out = Object.assign(keyedRecord<Record<string, unknown>>(), parent.visible())
      out[loopId] = own
      for (const ref of above.get(id) ?? []) {
        const output = outputs.get(ref)
        if (output) out[ref] = output
      }
      return out
    },
    chunk: (id, text, channel) => {
      if (running.has(id)) emit({ type: 'nodeChunk', nodeId: id, text, channel })
    },
    guard: (id, alert) => {
      if (running.has(id)) emit({ ...alert, type: 'guard', nodeId: id })
    },
    call: (id, event) => {
      if (running.has(id)) emit(event)
    },
    forward: (id, event) => {
      if (running.has(id) && parent.live()) parent.forward(withinNesting(event, nesting))
    },
    runNode: (_caller, target, inputs, toolSignal) => parent.runNode(loopId, target, inputs, toolSignal),
    body: (id) => {
      const inner = plan.bodies?.get(id)
      if (!inner) return undefined
      return createLoopBody({
        ...parent,
        loopId: id,
        plan: inner,
        nesting,
        lookup: (ref) => host.lookup(id, ref),
        visible: () => host.visible(id),
        live: () => parent.live() && running.has(id),
      })
    },
  }
  const settled = new Map<string, Promise<Settle>>()
  const runOne = async (id: string): Promise<Settle> => {
    const parents = plan.graph.parents.get(id) ?? []
    const ups = await Promise.all(parents.map((p) => settled.get(p) as Promise<Settle>))
    if (ups.some((u) => u.kind === 'failed' || u.kind === 'failedBelow')) {
      emit({
        type: 'nodeSkipped',
        nodeId: id,
        reason: 'upstreamFailed',
        message: 'Skipped: a node before it failed.',
      })
      return { kind: 'failedBelow' }
    }
    if (signal.aborted || ups.some((u) => u.kind === 'stopped')) return { kind: 'stopped' }
    const took = ups.map((u, i) => {
      if (u.kind !== 'done') return false
      const ports = plan.ports.get(parents[i] as string)?.get(id) ?? []
      return u.notTaken.length === 0 || ports.some((port) => !u.notTaken.includes(port))
    })
    const type = plan.types.get(id) as EngineNodeType
    if (type.joinsBranches ? parents.length > 0 && !took.some(Boolean) : !took.every(Boolean)) {
      emit({
        type: 'nodeSkipped',
        nodeId: id,
        reason: 'notTaken',
        message: 'Not taken: the branch leading here was not chosen.',
      })
      return { kind: 'notTaken' }
    }
    // Every body node starts from its loops' scopes (item, index, previous; outermost first),
    // which its templates read as `{{<loop>.item}}`: a Code node, which reads `inputs` instead
    // of templates, finds them as `inputs.<loop id>`. Then what its body parents output.
    const inputs = keyedRecord<Record<string, unknown>>()
    const loops = [...parent.nesting.flatMap((s) => (s.kind === 'loop' ? [s.nodeId] : [])), loopId]
    for (const loop of loops) {
      const scope = loop === loopId ? own : parent.lookup(loop)
      if (scope) inputs[loop] = scope
    }
    for (const p of parents) {
      const output = outputs.get(p)
      if (output) inputs[p] = output
    }
    const started = ctx.clock.now()
    running.add(id)
    emit({ type: 'nodeStart', nodeId: id, inputs })
    try {
      const result = await executeNode({
        node: plan.nodes.get(id) as FlowNode,
        type,
        ctx,
        signal,
        inputs,
        host,
      })
      outputs.set(id, result.output)
      if (result.usage) usage = addUsage(usage, result.usage)
      emit({
        type: 'nodeFinish',
        nodeId: id,
        status: result.status ?? 'success',
        output: result.output,
        durationMs: ctx.clock.now() - started,
        ...(result.usage ? { usage: result.usage } : {}),
      })
      return { kind: 'done', notTaken: result.notTaken ?? [] }
    } catch (error) {
      const flowError = toFlowError(error, 'INTERNAL', id)
      emit({
        type: 'nodeError',
        nodeId: id,
        code: flowError.code,
        message: flowError.message,
        durationMs: ctx.clock.now() - started,
        ...errorEventDetails(flowError),
      })
      return { kind: 'failed', error: flowError }
    } finally {
      running.delete(id)
    }
  }
  // Promises are created in run order, so every body parent's promise exists before its child's.
  for (const id of plan.order) settled.set(id, runOne(id))
  const all = await Promise.all(settled.values())
  const failed = all.find((s): s is Extract<Settle, { kind: 'failed' }> => s.kind === 'failed')
  if (failed) throw failed.error
  if (signal.aborted || all.some((s) => s.kind === 'stopped'))
    throw new FlowError('CANCELLED', 'The run was stopped.', { nodeId: loopId })
  return { outputs, usage }
}
