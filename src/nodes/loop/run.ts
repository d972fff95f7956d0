/**
 * The loop executor: runs its body (NodeExecution.body, engine/loopBody.ts) once per item
 * (`forEach`) or until `until` holds (`while`), guarded like the Agent: the token budget, repeat
 * detection on the body's results (the Agent's canonical signature), the iteration cap.
 */
import {
  addUsage,
  budgetExceededMessage,
  canonicalToolSignature,
  emptyUsage,
  FlowError,
  toFlowError,
  type BodyScope,
  type LoopBody,
  type NodeExecution,
  type NodeResult,
  type Usage,
} from '../../engine/index.ts'
import { LOOP_HINT_AT } from '../../defaults.ts'
import { caseHolds, type ResolvedRule } from '../condition/evaluate.ts'
import type { LoopConfig } from './schema.ts'
import { loopMaxIterationsMessage, loopRepeatHintMessage, loopRepeatTripMessage } from './messages.ts'

type StopReason = 'until' | 'maxIterations' | 'stuck' | 'budget'

/** The body node whose output is an iteration's result (undefined: an empty body). */
function resultNodeOf(config: LoopConfig, body: LoopBody, loopId: string): string | undefined {
  const named = config.resultNode.trim()
  if (named !== '') {
    if (body.nodeIds.includes(named)) return named
    throw new FlowError(
      'INVALID_CONFIG',
      `Loop "${loopId}": the result node "${named}" is not in its body.`,
      {
        nodeId: loopId,
        details: { path: 'resultNode' },
      },
    )
  }
  if (body.sinks.length <= 1) return body.sinks[0]
  throw new FlowError(
    'MISSING_CONFIG',
    `Loop "${loopId}": its body ends in ${body.sinks.join(', ')}; name one of them as the result node.`,
    { nodeId: loopId, details: { path: 'resultNode' } },
  )
}

function parseItems(text: string, loopId: string): unknown[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  if (Array.isArray(value)) return value
  const head = text.length > 80 ? `${text.slice(0, 80)}…` : text
  throw new FlowError(
    'INVALID_CONFIG',
    `Loop "${loopId}": items must be a JSON array; got ${JSON.stringify(head)}.`,
    {
      nodeId: loopId,
      details: { path: 'items' },
    },
  )
}

export async function executeLoop(exec: NodeExecution<LoopConfig>): Promise<NodeResult> {
  const { config, node, signal, ctx, emit } = exec
  const body = exec.body
  if (!body)
    throw new FlowError('INTERNAL', `Loop "${node.id}" was run without its body.`, { nodeId: node.id })
  const resultId = resultNodeOf(config, body, node.id)
  const budget = ctx.protection.maxTokenBudget
  let usage: Usage = emptyUsage()
  let spent = false
  const iterate = async (scope: BodyScope): Promise<unknown> => {
    try {
      const run = await body.run(scope, signal)
      usage = addUsage(usage, run.usage)
      if (budget > 0 && usage.total >= budget && !spent) {
        spent = true
        emit.guard({
          layer: 'budget',
          level: 'trip',
          total: usage.total,
          budget,
          phase: 'after-call',
          message: budgetExceededMessage(usage.total, budget),
        })
      }
      return resultId === undefined
        ? { item: scope.item ?? null, index: scope.index }
        : (run.outputs.get(resultId) ?? null)
    } catch (error) {
      const failure = toFlowError(error, 'INTERNAL', node.id)
      if (signal.aborted || failure.code === 'CANCELLED')
        throw new FlowError('CANCELLED', 'The run was stopped.', { nodeId: node.id })
      if (config.onItemError === 'continue') {
        emit.chunk(`#${scope.index}: ${failure.message}\n`, 'log')
        return { error: failure.message }
      }
      throw new FlowError(
        failure.code,
        `Iteration ${scope.index} of loop "${node.id}" failed: ${failure.message}`,
        {
          nodeId: node.id,
          details: { iteration: scope.index, ...(failure.nodeId ? { failedNodeId: failure.nodeId } : {}) },
        },
      )
    }
  }
  const finish = (results: unknown[], stopReason?: StopReason): NodeResult => {
    emit.chunk(
      `${results.length} result${results.length === 1 ? '' : 's'}${stopReason ? ` (${stopReason})` : ''}`,
      'output',
    )
    return {
      output: { results, count: results.length, ...(stopReason ? { stopReason } : {}) },
      status: stopReason === 'stuck' || stopReason === 'budget' ? 'stopped' : 'success',
      ...(usage.total > 0 || usage.estimated ? { usage } : {}),
    }
  }
  if (config.mode === 'forEach') {
    const items = parseItems(exec.resolve(config.items, 'items'), node.id)
    const results: unknown[] = new Array<unknown>(items.length).fill(null)
    let next = 0
    let done = 0
    const worker = async (): Promise<void> => {
      while (next < items.length && !spent) {
        const index = next++
        results[index] = await iterate({
          item: items[index],
          index,
          previous: index > 0 ? results[index - 1] : null,
        })
        done = Math.max(done, index + 1)
      }
    }
    await Promise.all(Array.from({ length: Math.min(config.concurrency, items.length) }, worker))
    return spent ? finish(results.slice(0, done), 'budget') : finish(results)
  }
  return runWhile(exec, iterate, finish, () => spent)
}

async function runWhile(
  { config, node, ctx, emit, body }: NodeExecution<LoopConfig>,
  iterate: (scope: BodyScope) => Promise<unknown>,
  finish: (results: unknown[], stopReason: StopReason) => NodeResult,
  spent: () => boolean,
): Promise<NodeResult> {
  const results: unknown[] = []
  const tripAt = ctx.protection.loopDetectionThreshold
  let previous: unknown = null
  let last: string | undefined
  let streak = 0
  for (let index = 0; ; index++) {
    const result = await iterate({ index, previous })
    results.push(result)
    previous = result
    if (spent()) return finish(results, 'budget')
    const rules: ResolvedRule[] = config.until.rules.map((rule, j) => ({
      rule,
      value: body?.resolve(rule.value, `until.rules[${j}].value`, { index, previous: result }) ?? '',
      to: body?.resolve(rule.to, `until.rules[${j}].to`, { index, previous: result }) ?? '',
    }))
    if (caseHolds({ id: 'until', ...config.until }, rules, (text) => emit.chunk(`${text}\n`, 'log')))
      return finish(results, 'until')
    const signature = canonicalToolSignature(node.id, JSON.stringify(result) ?? 'null')
    streak = signature === last ? streak + 1 : 1
    last = signature
    if (ctx.protection.loopDetectionEnabled && streak >= tripAt) {
      emit.guard({
        layer: 'loop',
        level: 'trip',
        detector: 'repeat',
        count: streak,
        message: loopRepeatTripMessage(node.id, streak),
      })
      return finish(results, 'stuck')
    }
    if (ctx.protection.loopDetectionEnabled && streak === LOOP_HINT_AT)
      emit.guard({
        layer: 'loop',
        level: 'hint',
        detector: 'repeat',
        count: streak,
        message: loopRepeatHintMessage(node.id, index),
      })
    if (index + 1 >= config.maxIterations) {
      emit.guard({
        layer: 'iterations',
        level: 'trip',
        count: config.maxIterations,
        message: loopMaxIterationsMessage(node.id, config.maxIterations),
      })
      return finish(results, 'maxIterations')
    }
  }
}
