/** Runs an Agent node: resolves provider, prompts and protection, then the guarded loop. */
import {
  FlowError,
  resolveAgentProtection,
  runAgentLoop,
  type NodeExecution,
  type NodeResult,
} from '../../engine/index.ts'
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
    finalizeAfterStop: config.finalizeAfterStop,
    sandboxTimeoutMs: config.sandboxTimeoutMs,
    toolTimeoutMs: config.toolTimeoutMs,
  }
}

export async function executeAgent(exec: NodeExecution<AgentConfig>): Promise<NodeResult> {
  const { node, config, ctx, signal, emit, resolve } = exec
  const provider = await ctx.providers.resolve({
    providerId: config.provider.trim() || undefined,
    nodeId: node.id,
    demoScript: config.demoScript,
  })
  const protection = resolveAgentProtection(overrides(config), ctx.protection)
  const result = await runAgentLoop({
    provider,
    model: resolve(config.model, 'model').trim(),
    systemPrompt: resolve(config.systemPrompt, 'systemPrompt'),
    prompt: resolve(config.prompt, 'prompt'),
    tools: buildTools(exec, protection),
    protection,
    clock: ctx.clock,
    estimateTokens: ctx.estimateTokens,
    validator: ctx.validator,
    signal,
    emit,
    ...(config.temperature == null ? {} : { temperature: config.temperature }),
  })
  if (result.stopReason === 'cancelled') {
    throw new FlowError('CANCELLED', 'The run was stopped.', { nodeId: node.id })
  }
  const { response, iterations, usage, stopReason, toolCalls, status } = result
  return { output: { response, iterations, usage, stopReason, toolCalls }, status, usage }
}
