/** Runs an Agent node: resolves provider, prompts and protection, then the guarded loop. */
import {
  createToolApprover,
  FlowError,
  gateOf,
  observeProvider,
  resolveAgentProtection,
  runAgentLoop,
  responseFormatOf,
  schemaInstruction,
  structuredReply,
  type AgentLoopResult,
  type ChatMessage,
  type ChatRequest,
  type LlmProvider,
  type NodeExecution,
  type NodeResult,
  type OutputSpec,
} from '../../engine/run.ts'
import { streamCall } from '../modelCall.ts'
import { outputSpecOf } from '../structuredOutput.ts'
import type { AgentConfig } from './schema.ts'
import { buildTools } from './tools.ts'

/** The node's own protection values; unset ones inherit the global settings. */
function overrides(config: AgentConfig) {
  return {
    maxIterations: config.maxIterations,
    maxTokenBudget: config.maxTokenBudget,
    loopDetectionEnabled: config.loopDetectionEnabled,
    loopDetectionThreshold: config.loopDetectionThreshold,
    progressAware: config.progressAware,
    cycleDetection: config.cycleDetection,
    textLoopDetection: config.textLoopDetection,
    finalizeAfterStop: config.finalizeAfterStop,
    sandboxTimeoutMs: config.sandboxTimeoutMs,
    toolTimeoutMs: config.toolTimeoutMs,
  }
}

export async function executeAgent(exec: NodeExecution<AgentConfig>): Promise<NodeResult> {
  const { node, config, ctx, signal, emit, resolve } = exec
  const resolved = await ctx.providers.resolve({
    providerId: config.provider.trim() || undefined,
    nodeId: node.id,
    demoScript: config.demoScript,
  })
  const provider = observeProvider(
    resolved,
    ctx.clock,
    emit.call,
    gateOf(ctx.runBudget, emit.guard),
    config.provider.trim(),
  )
  const protection = resolveAgentProtection(overrides(config), ctx.protection)
  const spec = outputSpecOf(config.output)
  const model = resolve(config.model, 'model').trim()
  // The tool loop cannot force a format (Anthropic's forced tool would forbid the other tools),
  // so the schema is asked for in the prompt; a repair, if needed, asks natively.
  const resolvedSystem = resolve(config.systemPrompt, 'systemPrompt')
  const systemPrompt = spec
    ? `${resolvedSystem}${resolvedSystem.trim() === '' ? '' : '\n\n'}${schemaInstruction(spec.schema)}`
    : resolvedSystem
  const prompt = resolve(config.prompt, 'prompt')
  const result = await runAgentLoop({
    provider,
    model,
    systemPrompt,
    prompt,
    tools: await buildTools(exec, protection),
    protection,
    clock: ctx.clock,
    estimateTokens: ctx.estimateTokens,
    validator: ctx.validator,
    signal,
    emit,
    // Asked calls' events come out where this node is (inside a loop body or a sub-flow).
    approve: createToolApprover(ctx, node.id, signal, (event) => emit.forward?.(event)),
    ...(config.temperature == null ? {} : { temperature: config.temperature }),
  })
  if (result.stopReason === 'cancelled') {
    throw new FlowError('CANCELLED', 'The run was stopped.', { nodeId: node.id })
  }
  const { response, iterations, usage, stopReason, toolCalls, status } = result
  if (spec) return structuredAnswer(exec, spec, result, { model, systemPrompt, prompt }, provider)
  return { output: { response, iterations, usage, stopReason, toolCalls }, status, usage }
}

/**
 * The loop's answer is the first attempt; a repair is a plain call (no tools) on the question
 * and the answer, asked natively where the provider can.
 */
async function structuredAnswer(
  exec: NodeExecution<AgentConfig>,
  spec: OutputSpec,
  result: AgentLoopResult,
  asked: { model: string; systemPrompt: string; prompt: string },
  provider: LlmProvider,
): Promise<NodeResult> {
  const { node, config, ctx, emit } = exec
  const messages: ChatMessage[] = [
    { role: 'system', content: asked.systemPrompt },
    { role: 'user', content: asked.prompt },
  ]
  const native = provider.structuredOutput === 'native'
  const request: ChatRequest = {
    model: asked.model,
    messages,
    ...(config.temperature == null ? {} : { temperature: config.temperature }),
    ...(native ? { responseFormat: responseFormatOf(spec.schema) } : {}),
  }
  const reply = await structuredReply({
    spec,
    request,
    first: { text: result.response, usage: result.usage },
    call: async (next) => {
      const { result: call, usage } = await streamCall(exec, provider, next)
      return { text: call.text, usage }
    },
    validator: ctx.validator,
    nodeId: node.id,
    log: (text) => emit.chunk(text, 'log'),
  })
  const { iterations, stopReason, toolCalls, status } = result
  const { data, response, usage, attempts } = reply
  return {
    output: { data, response, usage, attempts, iterations, stopReason, toolCalls },
    status,
    usage,
  }
}
