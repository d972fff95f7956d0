/**
 * Sub-flows: a `subflow` node runs another flow as one step. The flows come from the host
 * through the `FlowLookup` port (the browser's saved flows, the flows a CLI file carries); the
 * engine runs them with the same registry, protection and clock, under the calling node's
 * signal, and passes their node events on placed under the calling node (nesting.ts).
 */
import { SUBFLOW_MAX_DEPTH } from '../defaults.ts'
import type { RunContext } from './context.ts'
import { FlowError } from './errors.ts'
import { addUsage, emptyUsage, type RunEvent, type RunFinishEvent, type Usage } from './events.ts'
import type { FlowDocument } from './flow.ts'
import type { NodeExecution, NodeRegistry, NodeResult } from './nodeType.ts'
import { keyedRecord } from './keyed.ts'
import { chainText } from './subflowCheck.ts'
import { throughSubflow } from './nesting.ts'

/**
 * A flow another flow may call, with its interface already worked out by the host (which knows
 * the node roles): the keys its Input nodes take and the Output nodes whose values it returns.
 */
export interface CalledFlow {
  doc: FlowDocument
  /** The keys of its Input nodes' values: what a calling node maps (`inputs`). */
  inputKeys: readonly string[]
  /** Its Output nodes, in document order: their outputs merged by key are the result. */
  outputNodeIds: readonly string[]
  /** The keys of those Output nodes' values: the calling node's output fields. */
  outputKeys: readonly string[]
}

/** The host port: the flows a run may call, by flow id. Synchronous so preflight can use it. */
export interface FlowLookup {
  get(flowId: string): CalledFlow | undefined
}

/**
 * Set by `runFlow` on the context its nodes get (hosts leave it unset): what a `subflow` node
 * needs to run a flow one level down.
 */
export interface NestedRun {
  registry: NodeRegistry
  /** Flow ids from the flow that was run down to the flow running now. */
  chain: readonly string[]
  /** `runFlow` itself, handed down so this file needs no import of it. */
  run(flow: FlowDocument, registry: NodeRegistry, ctx: RunContext): AsyncIterable<RunEvent>
}

/** The context a run's nodes get: `ctx` plus where this run sits in a chain of sub-flows. */
export function nestedContext(
  ctx: RunContext,
  parts: Omit<NestedRun, 'chain'> & { flowId: string },
): RunContext {
  const { flowId, ...rest } = parts
  return { ...ctx, nested: { ...rest, chain: [...(ctx.nested?.chain ?? []), flowId] } }
}

/** Names a flow for a message: its name, else its id. */
function flowName(called: CalledFlow | undefined, flowId: string): string {
  const name = called?.doc.metadata.name.trim()
  return name ? `"${name}"` : `"${flowId}"`
}

/**
 * Runs flow `flowId` for the node of `exec`: `inputs` set its Input node values by key, the
 * result is its Output nodes' values merged by key (later Output nodes win on a shared key).
 * Refuses a missing flow, a flow already in the chain and a chain deeper than SUBFLOW_MAX_DEPTH;
 * a failed node inside fails this node with SUBFLOW_FAILED naming it.
 */
export async function runSubflow(
  exec: NodeExecution<unknown>,
  flowId: string,
  inputs: Readonly<Record<string, string>>,
): Promise<NodeResult> {
  const { ctx, node } = exec
  const nested = ctx.nested
  if (!nested)
    throw new FlowError('SUBFLOW_FAILED', 'A sub-flow runs only inside a flow run.', { nodeId: node.id })
  const called = ctx.flows?.get(flowId)
  if (!called) {
    throw new FlowError('SUBFLOW_NOT_FOUND', `There is no flow "${flowId}" to run as a sub-flow.`, {
      nodeId: node.id,
      details: { flow: flowId },
    })
  }
  if (nested.chain.includes(flowId)) {
    const chain = chainText([...nested.chain, flowId])
    throw new FlowError('SUBFLOW_RECURSION', `Sub-flows call each other in a circle: ${chain}.`, {
      nodeId: node.id,
      details: { chain },
    })
  }
  if (nested.chain.length > SUBFLOW_MAX_DEPTH) {
    throw new FlowError(
      'SUBFLOW_TOO_DEEP',
      `Sub-flows nest more than ${SUBFLOW_MAX_DEPTH} deep: ${chainText([...nested.chain, flowId])}.`,
      { nodeId: node.id, details: { chain: chainText([...nested.chain, flowId]), max: SUBFLOW_MAX_DEPTH } },
    )
  }
  // Only the mapped values reach the sub-flow: the caller's own run inputs are not its inputs.
  const sub: RunContext = { ...ctx, signal: exec.signal, inputs: { ...inputs } }
  const outputs = new Map<string, Record<string, unknown>>()
  let usage: Usage = emptyUsage()
  let status: RunFinishEvent['status'] = 'error'
  let firstError: { nodeId: string; message: string } | undefined
  try {
    for await (const event of nested.run(called.doc, nested.registry, sub)) {
      // The called flow's own top-level events; those from its bodies and sub-flows carry nesting.
      if (event.nesting === undefined) {
        if (event.type === 'runFinish') {
          status = event.status
          usage = addUsage(usage, event.usage)
          continue
        }
        if (event.type === 'runStart') continue
        if (event.type === 'nodeFinish') outputs.set(event.nodeId, event.output)
        if (event.type === 'nodeError' && firstError === undefined)
          firstError = { nodeId: event.nodeId, message: event.message }
      }
      exec.emit.forward?.(throughSubflow(event, node.id))
    }
  } catch (error) {
    if (error instanceof FlowError && error.code === 'CANCELLED') throw error
    const reason = error instanceof Error ? error.message : String(error)
    throw new FlowError('SUBFLOW_FAILED', `The sub-flow ${flowName(called, flowId)} cannot run: ${reason}`, {
      nodeId: node.id,
      cause: error,
      details: { flow: flowId },
    })
  }
  if (status === 'cancelled' || exec.signal.aborted)
    throw new FlowError('CANCELLED', 'The run was stopped.', { nodeId: node.id })
  if (status === 'error') {
    const where = firstError ? ` at "${firstError.nodeId}": ${firstError.message}` : ''
    throw new FlowError('SUBFLOW_FAILED', `The sub-flow ${flowName(called, flowId)} failed${where}`, {
      nodeId: node.id,
      details: { flow: flowId, ...(firstError ? { failedNodeId: firstError.nodeId } : {}) },
    })
  }
  const output = keyedRecord<unknown>()
  for (const id of called.outputNodeIds) Object.assign(output, outputs.get(id))
  return { output, usage }
}
