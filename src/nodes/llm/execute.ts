/** Runs one model call: resolves the prompts, streams text and reasoning into the console. */
import {
  createTextLoopDetector,
  cutReplyResult,
  FlowError,
  inheritedProtection,
  readChatStream,
  textLoopTripMessage,
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
  const guarded = config.textLoopDetection ?? inheritedProtection(ctx.protection).textLoopDetection.value
  const reply = await readChatStream(
    provider.chat(request, signal),
    guarded ? createTextLoopDetector() : undefined,
    {
      text: (text) => emit.chunk(text, 'output'),
      reasoning: (text) => emit.chunk(text, 'reasoning'),
    },
  )
  const trip = reply.trip
  if (trip) {
    const message = textLoopTripMessage(trip.quote, trip.count)
    emit.guard({ layer: 'loop', level: 'trip', detector: 'content', count: trip.count, message })
  }
  const result = trip ? cutReplyResult(reply, request.model) : reply.result
  if (!result) {
    throw new FlowError('PROVIDER_BAD_RESPONSE', 'The provider ended the reply before it was complete.', {
      nodeId: node.id,
    })
  }
  // A non-streaming reply arrives whole in the final chunk; show it in the console all the same.
  if (!reply.streamedText && result.text !== '') emit.chunk(result.text, 'output')
  const usage = await usageOf(result, messages, ctx.estimateTokens)
  const output = { response: result.text, usage, model: result.model, finishReason: result.finishReason }
  // A cut reply still flows downstream (what was paid for), marked as stopped and why.
  if (trip) return { output: { ...output, stopReason: 'degenerate' }, status: 'stopped', usage }
  return { output, usage }
}
