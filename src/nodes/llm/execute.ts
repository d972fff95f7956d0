/** Runs one model call: resolves the prompts, streams text and reasoning into the console. */
import {
  FlowError,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type NodeExecution,
  type NodeResult,
  type RunContext,
  type Usage,
} from '../../engine/index.ts'
import type { LlmConfig } from './schema.ts'

/** Provider-reported usage when present; otherwise a tokenizer estimate, marked as such. */
export async function usageOf(
  result: ChatResult,
  messages: readonly ChatMessage[],
  estimate: RunContext['estimateTokens'],
): Promise<Usage> {
  if (result.usage) {
    const { prompt, completion } = result.usage
    return { prompt, completion, total: prompt + completion, estimated: false }
  }
  const [prompt, completion] = await Promise.all([
    estimate(messages.map((m) => m.content).join('\n')),
    estimate(result.reasoning + result.text),
  ])
  return { prompt, completion, total: prompt + completion, estimated: true }
}

export async function executeLlm(exec: NodeExecution<LlmConfig>): Promise<NodeResult> {
  const { node, config, ctx, signal, emit, resolve } = exec
  const provider = await ctx.providers.resolve({
    providerId: config.provider.trim() || undefined,
    nodeId: node.id,
    demoScript: config.demoScript,
  })
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
  let result: ChatResult | undefined
  let streamedText = false
  for await (const chunk of provider.chat(request, signal)) {
    if (chunk.type === 'text') {
      streamedText ||= chunk.text !== ''
      emit.chunk(chunk.text, 'output')
    } else if (chunk.type === 'reasoning') {
      emit.chunk(chunk.text, 'reasoning')
    } else {
      result = chunk.result
    }
  }
  if (!result) {
    throw new FlowError('PROVIDER_BAD_RESPONSE', 'The provider ended the reply before it was complete.', {
      nodeId: node.id,
    })
  }
  // A non-streaming reply arrives whole in the final chunk; show it in the console all the same.
  if (!streamedText && result.text !== '') emit.chunk(result.text, 'output')
  const usage = await usageOf(result, messages, ctx.estimateTokens)
  return {
    output: { response: result.text, usage, model: result.model, finishReason: result.finishReason },
    usage,
  }
}
