/** Server-sent events from an open call, parsed with eventsource-parser. */
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { PROVIDER_SSE_LINE_MAX_CHARS } from '../defaults.ts'
import type { ChatChunk, ChatResult } from '../engine/index.ts'
import { badResponseError, withShownChars, type CallTarget } from './errors.ts'
import type { OpenCall } from './transport.ts'

/** True when a reply to a streaming request is plain JSON (some servers ignore `stream: true`). */
export function isJsonReply(response: Response): boolean {
  const type = (response.headers.get('content-type') ?? '').toLowerCase()
  return type.includes('json') && !type.includes('event-stream')
}

/**
 * Where a line break is in `text`, first or last; -1 when none. SSE ends lines with LF, CR or
 * CRLF.
 */
function lineBreak(text: string, last: boolean): number {
  const lf = last ? text.lastIndexOf('\n') : text.indexOf('\n')
  const cr = last ? text.lastIndexOf('\r') : text.indexOf('\r')
  if (lf < 0 || cr < 0) return Math.max(lf, cr)
  return last ? Math.max(lf, cr) : Math.min(lf, cr)
}

/**
 * Yields each SSE message as soon as its blank line arrives. A line longer than
 * PROVIDER_SSE_LINE_MAX_CHARS ends the call (the parser would keep all of it, and a 200 MB line
 * grew the CLI to 3.5 GB). Only events reset the idle watchdog: keep-alive comments do not, so a
 * server sending nothing else is given up on like a silent one.
 */
export async function* sseMessages(call: OpenCall): AsyncGenerator<EventSourceMessage> {
  const pending: EventSourceMessage[] = []
  // Unknown fields and bad retry values are harmless noise in a model stream: ignore them.
  const parser = createParser({
    onEvent: (message) => {
      call.progress()
      pending.push(message)
    },
    onError: () => undefined,
  })
  let lineChars = 0
  for await (const text of call.text({ resetIdleOnRead: false })) {
    const first = lineBreak(text, false)
    const longest = first < 0 ? lineChars + text.length : Math.max(lineChars + first, text.length)
    if (longest > PROVIDER_SSE_LINE_MAX_CHARS) {
      throw badResponseError(
        call.target,
        `it sent a line longer than ${PROVIDER_SSE_LINE_MAX_CHARS / 1_048_576} M characters, far beyond any streamed event, so the reply was cut off`,
      )
    }
    lineChars = first < 0 ? lineChars + text.length : text.length - lineBreak(text, true) - 1
    parser.feed(text)
    if (pending.length > 0) yield* pending.splice(0)
  }
  // A last event the server ended without its blank line still counts.
  parser.feed('\n\n')
  yield* pending.splice(0)
}

/** A streamed reply's parser, fed one SSE event's data at a time (OpenAiStream, AnthropicStream). */
export interface StreamedReply {
  push(data: string): Iterable<ChatChunk>
  readonly done: boolean
  /** The reply text shown so far: a cut-off stream's error says how much arrived. */
  readonly shownText: string
  finish(): ChatResult
}

/** Feeds `reply` the call's SSE events, yields its chunks, then its result (`done`). */
export async function* streamReply(
  call: OpenCall,
  reply: StreamedReply,
  target: CallTarget,
): AsyncGenerator<ChatChunk> {
  try {
    for await (const message of sseMessages(call)) {
      yield* reply.push(message.data)
      if (reply.done) break
    }
  } catch (error) {
    throw withShownChars(error, target, reply.shownText)
  }
  yield { type: 'done', result: reply.finish() }
}

/** The chunks of a reply that came whole (not streamed): its reasoning, its text, then done. */
export function* wholeReply(result: ChatResult): Generator<ChatChunk> {
  if (result.reasoning !== '') yield { type: 'reasoning', text: result.reasoning }
  if (result.text !== '') yield { type: 'text', text: result.text }
  yield { type: 'done', result }
}

/**
 * One SSE `data` line read as JSON of `schema`; undefined for a line that is not (a proxy's
 * comment, a keep-alive, a garbled event), which each stream counts in its own way.
 */
export function parseEventData<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  data: string,
): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(data) as unknown)
    return result.success ? result.data : undefined
  } catch {
    return undefined
  }
}
