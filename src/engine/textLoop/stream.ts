/**
 * Reads one streamed model call with the degenerate-text detector watching its text: the LLM
 * node and the agent loop share it, so both stop a looping reply the same way.
 */
import type { ChatChunk, ChatResult } from '../ports.ts'
import type { TextLoopDetector, TextLoopTrip } from './detector.ts'

export interface StreamedReply {
  /** The provider's final result; undefined when the detector cut the stream first. */
  result: ChatResult | undefined
  /** Text and reasoning streamed so far (all of it when the call completed). */
  text: string
  reasoning: string
  /** Set when the detector tripped: the stream was closed at that chunk. */
  trip: TextLoopTrip | undefined
  /** True when any text arrived as chunks (a non-streamed reply has it only in `result`). */
  streamedText: boolean
}

export interface StreamSink {
  text(text: string): void
  reasoning(text: string): void
}

/**
 * Consumes `stream`, forwarding chunks to `sink`. When `detector` trips, it stops reading:
 * leaving the `for await` closes the provider's generator, whose `finally` ends the request, so
 * no more tokens are paid for.
 */
export async function readChatStream(
  stream: AsyncIterable<ChatChunk>,
  detector: TextLoopDetector | undefined,
  sink: StreamSink,
): Promise<StreamedReply> {
  const reply: StreamedReply = {
    result: undefined,
    text: '',
    reasoning: '',
    trip: undefined,
    streamedText: false,
  }
  for await (const chunk of stream) {
    if (chunk.type === 'text') {
      reply.streamedText ||= chunk.text !== ''
      reply.text += chunk.text
      sink.text(chunk.text)
      reply.trip = detector?.push(chunk.text)
      if (reply.trip) break
    } else if (chunk.type === 'reasoning') {
      reply.reasoning += chunk.text
      sink.reasoning(chunk.text)
    } else reply.result = chunk.result
  }
  return reply
}

/** The result a cut reply stands for: its text so far, no tool calls, `finishReason: 'degenerate'`. */
export function cutReplyResult(reply: StreamedReply, model: string): ChatResult {
  return { text: reply.text, reasoning: reply.reasoning, toolCalls: [], finishReason: 'degenerate', model }
}
