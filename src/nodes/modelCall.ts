/** One model call of a model node (LLM, Agent repairs): streamed into the console, usage counted. */
import {
  FlowError,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type LlmProvider,
  type NodeExecution,
  type RunContext,
  type Usage,
} from '../engine/index.ts'

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

/** One streamed call, its text shown in the console as it comes. */
export async function streamCall<C>(
  exec: NodeExecution<C>,
  provider: LlmProvider,
  request: ChatRequest,
): Promise<{ result: ChatResult; usage: Usage }> {
  const { node, ctx, signal, emit } = exec
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
  return { result, usage: await usageOf(result, request.messages, ctx.estimateTokens) }
}
