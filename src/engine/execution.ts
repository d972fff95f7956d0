/**
 * Running one node: parse and check its config, build its NodeExecution (template lookup,
 * console emitters, `runNode` for Agent tools) and call its executor. Shared by the scheduler
 * and by `runNode`, so a node run as a tool behaves exactly as in a flow run.
 */
import type { RunContext } from './context.ts'
import { FlowError } from './errors.ts'
import type { GuardAlert } from './events.ts'
import type { FlowNode } from './flow.ts'
import type { EngineNodeType, NodeExecution, NodeResult } from './nodeType.ts'
import { renderTemplate } from './templates.ts'

export type Outputs = Readonly<Record<string, Record<string, unknown>>>

/** Where a node's console output goes; the runner turns these into events. */
export interface ExecutionSinks {
  chunk(text: string, channel: 'output' | 'reasoning' | 'log'): void
  guard(alert: GuardAlert): void
}

export interface ExecutionParts {
  node: FlowNode
  type: EngineNodeType
  ctx: RunContext
  signal: AbortSignal
  /** Outputs visible to templates and `upstream`: the node's ancestors (plus tool inputs). */
  visible(): Outputs
  /** Fast path for templates: the outputs of one visible node. */
  lookup(nodeId: string): Record<string, unknown> | undefined
  /** Direct upstream outputs (the Code node's `inputs`). */
  inputs: Outputs
  sinks: ExecutionSinks
  runNode: NodeExecution<unknown>['runNode']
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
  const { node, type, ctx, signal, sinks } = parts
  const config = parseNodeConfig(node, type)
  let upstream: Outputs | undefined
  const exec: NodeExecution<unknown> = {
    node,
    config,
    get upstream() {
      // Built on first use only: most executors never read it, and on long chains it is large.
      upstream ??= parts.visible()
      return upstream
    },
    inputs: parts.inputs,
    resolve: (template) => renderTemplate(template, parts.lookup, node.id),
    ctx,
    signal,
    emit: {
      chunk: (text, channel = 'output') => {
        if (text !== '') sinks.chunk(text, channel)
      },
      guard: (alert) => sinks.guard(alert),
    },
    runNode: parts.runNode,
  }
  if (signal.aborted) throw new FlowError('CANCELLED', 'The run was stopped.', { nodeId: node.id })
  return type.execute(exec)
}

/** Turns tool inputs into output records: objects are used as they are, other values wrapped. */
export function toOutputs(inputs: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {}
  for (const [key, value] of Object.entries(inputs)) {
    out[key] =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { value }
  }
  return out
}
