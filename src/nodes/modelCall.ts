/** One model call of a model node (LLM, Agent repairs): streamed into the console, usage counted. */
import {
  createTextLoopDetector,
  cutReplyResult,
  FlowError,
  readChatStream,
  reportedUsage,
  textLoopTripMessage,
  type TextLoopTrip,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type LlmProvider,
  type NodeExecution,
  type RunContext,
  type Usage,
} from '../engine/run.ts'

/** Provider-reported usage when present; otherwise a tokenizer estimate, marked as such. */
export async function usageOf(
  result: ChatResult,
  messages: readonly ChatMessage[],
  estimate: RunContext['estimateTokens'],
): Promise<Usage> {
  if (result.usage) {
    return reportedUsage(result.usage)
  }
  const [prompt, completion] = await Promise.all([
    estimate(messages.map((m) => m.content).join('\n')),
    estimate(result.reasoning + result.text),
  ])
  return { prompt, completion, total: prompt + completion, estimated: true }
}

/** A streamed call, and whether the degenerate-text detector cut it short (and why). */
export interface StreamedCall {
  result: ChatResult
  usage: Usage
  /** Set when the reply was cut for repeating itself: the text so far is `result.text`. */
  trip?: TextLoopTrip
}

/**
 * One streamed call, its text shown in the console as it comes. With `watchText`, the reply is
 * watched for repeating itself (engine/textLoop): a trip stops reading, emits the `guard` event
 * and returns the text so far, marked.
 */
export async function streamCall<C>(
  exec: NodeExecution<C>,
  provider: LlmProvider,
  request: ChatRequest,
  watchText = false,
): Promise<StreamedCall> {
  const { node, ctx, signal, emit } = exec
  const reply = await readChatStream(
    provider.chat(request, signal),
    watchText ? createTextLoopDetector() : undefined,
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
  const usage = await usageOf(result, request.messages, ctx.estimateTokens)
  return trip ? { result, usage, trip } : { result, usage }
}
