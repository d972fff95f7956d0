/**
 * Runs an LLM node: resolves the prompts and makes one streamed call. With `output.schema`, the
 * reply is data: asked for natively or in the prompt, checked, repaired (engine/structured.ts).
 */
import {
  inheritedProtection,
  gateOf,
  observeProvider,
  structuredReply,
  structuredRequest,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type NodeExecution,
  type NodeResult,
} from '../../engine/run.ts'
import { streamCall } from '../modelCall.ts'
import { outputSpecOf } from '../structuredOutput.ts'
import type { LlmConfig } from './schema.ts'

export async function executeLlm(exec: NodeExecution<LlmConfig>): Promise<NodeResult> {
  const { node, config, ctx, emit, resolve } = exec
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
  const messages: ChatMessage[] = []
  const system = resolve(config.systemPrompt, 'systemPrompt')
  if (system.trim() !== '') messages.push({ role: 'system', content: system })
  messages.push({ role: 'user', content: resolve(config.prompt, 'prompt') })
  const request: ChatRequest = {
    model: resolve(config.model, 'model').trim(),
    messages,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
    // The node can only turn streaming off; otherwise the provider's own switch decides.
    ...(config.stream ? {} : { stream: false }),
  }
  const watchText = config.textLoopDetection ?? inheritedProtection(ctx.protection).textLoopDetection.value
  const spec = outputSpecOf(config.output)
  if (!spec) {
    const { result, usage, trip } = await streamCall(exec, provider, request, watchText)
    const output = { response: result.text, usage, model: result.model, finishReason: result.finishReason }
    // A cut reply still flows downstream (what was paid for), marked as stopped and why.
    if (trip) return { output: { ...output, stopReason: 'degenerate' }, status: 'stopped', usage }
    return { output, usage }
  }
  // With a schema a cut reply is simply invalid data: the repair loop asks again.
  let last: ChatResult | undefined
  const reply = await structuredReply({
    spec,
    request: structuredRequest(request, spec, provider.structuredOutput === 'native'),
    call: async (next) => {
      const { result, usage } = await streamCall(exec, provider, next, watchText)
      last = result
      return { text: result.text, usage }
    },
    validator: ctx.validator,
    nodeId: node.id,
    log: (text) => emit.chunk(text, 'log'),
  })
  const { data, response, usage, attempts } = reply
  return {
    output: {
      data,
      response,
      usage,
      attempts,
      model: last?.model ?? '',
      finishReason: last?.finishReason ?? '',
    },
    usage,
  }
}
