/** Server-sent events from an open call, parsed with eventsource-parser. */
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import type { OpenCall } from './transport.ts'

/** True when a reply to a streaming request is plain JSON (some servers ignore `stream: true`). */
export function isJsonReply(response: Response): boolean {
  const type = (response.headers.get('content-type') ?? '').toLowerCase()
  return type.includes('json') && !type.includes('event-stream')
}

/** Yields each SSE message as soon as its blank line arrives. */
export async function* sseMessages(call: OpenCall): AsyncGenerator<EventSourceMessage> {
  const pending: EventSourceMessage[] = []
  // Unknown fields and bad retry values are harmless noise in a model stream: ignore them.
  const parser = createParser({ onEvent: (message) => pending.push(message), onError: () => undefined })
  for await (const text of call.text()) {
    parser.feed(text)
    if (pending.length > 0) yield* pending.splice(0)
  }
  // A last event the server ended without its blank line still counts.
  parser.feed('\n\n')
  yield* pending.splice(0)
}
