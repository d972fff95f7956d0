/**
 * `runFlow`: runs a flow and streams its events as they happen. The async iterator is the whole
 * interface: the app batches events into the store, the CLI prints them, tests collect them.
 */
import type { RunContext } from './context.ts'
import { FlowError } from './errors.ts'
import type { RunEvent } from './events.ts'
import { executeNode, toOutputs } from './execution.ts'
import type { FlowDocument, FlowNode } from './flow.ts'
import { buildGraph, directUpstream, sourcePorts, topologicalSort } from './graph.ts'
import { keyedRecord } from './keyed.ts'
import type { EngineNodeType, NodeRegistry, NodeResult } from './nodeType.ts'
import { AsyncQueue } from './queue.ts'
import { planBodies } from './loopBody.ts'
import { RunScheduler, type RunPlan } from './scheduler.ts'
import { RunCostMeter } from './cost/runCost.ts'
import { effectiveLimits, RunBudget, runBudgetAlert } from './cost/runBudget.ts'
import { isBlocking, structuralProblems, toolNodes } from './structure.ts'
import { nestedContext } from './subflow.ts'
import { pinnedReuse, type RunOptions } from './reuse.ts'

/**
 * Checks the flow's structure and orders its executable nodes. Throws a FlowError carrying the
 * first blocking problem's code (CYCLE, DANGLING_EDGE, UNSUPPORTED_NODE, ...) and message.
 */
export function planRun(flow: FlowDocument, registry: NodeRegistry): RunPlan {
  const blocking = structuralProblems(flow, registry).filter(isBlocking)
  const first = blocking[0]
  if (first) {
    const more =
      blocking.length > 1 ? ` (and ${blocking.length - 1} more problem${blocking.length > 2 ? 's' : ''})` : ''
    throw new FlowError(first.code, first.message + more, { nodeId: first.nodeId, details: first.params })
  }
  const nodes = new Map<string, FlowNode>()
  const types = new Map<string, EngineNodeType>()
  for (const node of flow.nodes) {
    const type = registry.get(node.type)
    if (!type?.executable) continue
    nodes.set(node.id, node)
    types.set(node.id, type)
  }
  // Tool-only nodes (run by an Agent, wired to nothing) wait to be called instead of running.
  const { toolOnly } = toolNodes(flow, registry)
  // Body nodes run inside their loop, once per iteration (loopBody.ts), never on their own.
  const graph = buildGraph(
    flow,
    (id) => nodes.has(id) && !toolOnly.has(id) && nodes.get(id)?.parentId === undefined,
  )
  return {
    flowId: flow.metadata.id,
    order: topologicalSort(graph).order,
    graph,
    ports: sourcePorts(flow, graph),
    nodes,
    types,
    bodies: planBodies(flow, flow.metadata.id, nodes, types),
  }
}

/**
 * Runs `flow` and yields its events: `runStart`, then per node `nodeStart`, `nodeChunk`s,
 * `guard`s and one of `nodeFinish`/`nodeError`/`nodeSkipped`, then `runFinish` (status
 * `success`, `error` when any node failed, `cancelled` after `ctx.signal` aborted).
 *
 * Each node starts as soon as all its upstream nodes finished, at most `ctx.concurrency`
 * (default RUN_CONCURRENCY) at once. A failed node skips only its descendants
 * (`reason: 'upstreamFailed'`). An executor may name output ports it did not take
 * (`NodeResult.notTaken`): a node runs only when, for every upstream node, at least one edge from
 * it is taken; otherwise it is skipped with `reason: 'notTaken'`, which spreads downstream until
 * a type that `joinsBranches` (merge), which runs when every input finished or was not taken and
 * at least one finished. A run whose nodes all finished or were not taken succeeded. Stopping settles
 * the run at once: running nodes get a CANCELLED `nodeError`, waiting ones a `nodeSkipped`.
 * Leaving the loop early (break) aborts the work still in flight.
 *
 * Nothing starts until iteration begins. A flow that cannot run at all (cycle, dangling edge,
 * unknown or unsupported node, duplicate id) makes the first `next()` reject with a FlowError;
 * call `preflight` first to show every problem.
 */
export function runFlow(
  flow: FlowDocument,
  registry: NodeRegistry,
  ctx: RunContext,
  options: RunOptions = {},
): AsyncIterable<RunEvent> {
  return { [Symbol.asyncIterator]: () => startRun(flow, registry, ctx, options) }
}

/** The outputs a run uses instead of running: the flow's pins, then `options.reuse`. */
function withPins(flow: FlowDocument, options: RunOptions): RunOptions {
  const pins = pinnedReuse(flow)
  if (pins.size === 0) return options
  const reuse = new Map(options.reuse ?? [])
  // A pin is the person's choice: it wins over a reused result, except for the node they asked
  // to run, which runs as asked.
  for (const [id, pin] of pins) if (id !== options.target) reuse.set(id, pin)
  return { ...options, reuse }
}

/**
 * A hand-written iterator rather than an async generator: `yield*` through a generator costs
 * several extra promise hops per event, which is most of the scheduler's overhead on big flows.
 */
function startRun(
  flow: FlowDocument,
  registry: NodeRegistry,
  ctx: RunContext,
  options: RunOptions,
): AsyncIterator<RunEvent> {
  let queue: AsyncQueue<RunEvent> | undefined
  let scheduler: RunScheduler | undefined
  let budget: RunBudget | undefined
  let refusal: unknown
  const begin = (): AsyncQueue<RunEvent> | undefined => {
    if (queue || refusal !== undefined) return queue
    try {
      const plan = planRun(flow, registry)
      const events = new AsyncQueue<RunEvent>()
      let ended = false
      // Only the outermost run keeps the ledger: nested runs inherit its budget through the
      // context, and their calls reach this run's stream as forwarded events.
      const limits = effectiveLimits(ctx.runLimits, flow.metadata.limits, ctx.runLimitsOverride)
      budget = ctx.runBudget
        ? undefined
        : new RunBudget(
            ctx.pricing,
            limits,
            ctx.estimateTokens,
            () => scheduler?.stop('budget'),
            ctx.sharedBudget,
          )
      const meter = budget ? new RunCostMeter(budget.ledger) : undefined
      const push = (event: RunEvent): void => {
        // A sub-flow's last events may come after this run finished (Stop): they are dropped,
        // but a call that was made is still charged (a batch's shared ledger counts it).
        if (ended) {
          if (event.type === 'modelCall') meter?.observe(event)
          return
        }
        if (event.type === 'runFinish') {
          ended = true
          budget?.close()
        }
        events.push(meter ? meter.observe(event) : event)
        const crossing = meter?.takeCrossing()
        if (!crossing || event.type !== 'modelCall') return
        // The crossing is the line of the node whose call crossed it, where that node sits.
        const { runId, at, nodeId, path, nesting } = event
        const where = { ...(path ? { path } : {}), ...(nesting ? { nesting } : {}) }
        push({ ...runBudgetAlert(crossing, 'after-call'), type: 'guard', runId, at, nodeId, ...where })
        if (crossing.level === 'trip') budget?.trip()
      }
      const runCtx = nestedContext(budget ? { ...ctx, runBudget: budget } : ctx, {
        registry,
        flowId: flow.metadata.id,
        run: runFlow,
      })
      scheduler = new RunScheduler(plan, runCtx, push, () => events.close(), withPins(flow, options))
      queue = events
      scheduler.start()
      // A batch row that started as another row spent the shared budget ends at once, stopped.
      budget?.stopIfSpent()
    } catch (error) {
      refusal = error
    }
    return queue
  }
  const done = (): Promise<IteratorResult<RunEvent>> => Promise.resolve({ value: undefined, done: true })
  return {
    next: () => {
      const events = begin()
      if (!events) {
        const error = refusal
        refusal = null // reject once, then behave as finished
        return error === null ? done() : Promise.reject(error)
      }
      return events.next()
    },
    return: () => {
      scheduler?.dispose()
      budget?.close()
      queue?.close()
      return done()
    },
  }
}

export interface RunNodeOptions {
  /** Aborts this node only; `ctx.signal` is honoured as well. */
  signal?: AbortSignal
  /** Receives the node's console text. */
  onChunk?(text: string, channel: 'output' | 'reasoning' | 'log'): void
}

/**
 * Runs one node of `flow` outside a flow run, e.g. "run this node" in the inspector.
 * `upstream` maps node ids to outputs, as a run would have produced them (non-object values are
 * wrapped as `{ value }`). Templates may read any of them; the Code node's `inputs` holds those
 * wired into the node, or all of them when the node has no incoming wires.
 */
export async function runNode(
  flow: FlowDocument,
  registry: NodeRegistry,
  ctx: RunContext,
  nodeId: string,
  upstream: Record<string, unknown>,
  options: RunNodeOptions = {},
): Promise<NodeResult> {
  const node = flow.nodes.find((n) => n.id === nodeId)
  const type = node ? registry.get(node.type) : undefined
  if (!node || !type?.executable)
    throw new FlowError('TOOL_NOT_FOUND', `There is no runnable node "${nodeId}" in this flow.`, { nodeId })
  const outputs = toOutputs(upstream)
  const parents = directUpstream(flow, nodeId)
  // A node with no wires sees everything it was given; otherwise only what is wired in.
  const direct = parents.length === 0 ? outputs : keyedRecord<Record<string, unknown>>()
  for (const parent of parents) {
    const output = outputs[parent]
    if (output && Object.hasOwn(outputs, parent)) direct[parent] = output
  }
  // A sub-flow run from here has no run stream to show its nodes in (the host has no forward).
  const nodeCtx = nestedContext(ctx, { registry, flowId: flow.metadata.id, run: runFlow })
  return executeNode({
    node,
    type,
    ctx: nodeCtx,
    signal: options.signal ? AbortSignal.any([options.signal, ctx.signal]) : ctx.signal,
    inputs: direct,
    inputOrder: parents.length === 0 ? Object.keys(direct) : parents.filter((p) => Object.hasOwn(direct, p)),
    host: {
      visible: () => outputs,
      lookup: (_id, ref) => (Object.hasOwn(outputs, ref) ? outputs[ref] : undefined),
      chunk: (_id, text, channel) => options.onChunk?.(text, channel),
      guard: () => undefined,
      runNode: async () => {
        throw new FlowError('TOOL_NOT_FOUND', 'A node run on its own cannot run other nodes.', { nodeId })
      },
    },
  })
}

export type { RunPlan } from './scheduler.ts'
