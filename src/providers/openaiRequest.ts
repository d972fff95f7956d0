/** Builds OpenAI-compatible chat-completion request bodies from the engine's ChatRequest. */
import { withSchemaInstruction, type ChatMessage, type ChatRequest } from '../engine/run.ts'

/** A message in the wire format of /chat/completions. */
export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant'
      content: string | null
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>
    }
  | { role: 'tool'; tool_call_id: string; content: string }

/** Maps engine messages to the wire format, keeping order exactly as given. */
export function toOpenAiMessages(messages: readonly ChatMessage[]): OpenAiMessage[] {
  return messages.map((message): OpenAiMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content }
      case 'assistant': {
        const calls = message.toolCalls ?? []
        if (calls.length === 0) return { role: 'assistant', content: message.content }
        return {
          role: 'assistant',
          // OpenAI's own replies carry null content beside tool calls; echo that shape back.
          content: message.content === '' ? null : message.content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
    }
  })
}

/**
 * Parameters some servers refuse; each is dropped or renamed once when a 400 names it, then the
 * request is re-sent (e.g. OpenAI reasoning models refuse `max_tokens` and custom temperatures,
 * older servers refuse `stream_options`).
 */
export interface BodyQuirks {
  noStreamOptions: boolean
  maxCompletionTokens: boolean
  noTemperature: boolean
  /** The server refused `response_format`: the schema goes into the prompt instead. */
  noResponseFormat: boolean
}

export function defaultQuirks(): BodyQuirks {
  return { noStreamOptions: false, maxCompletionTokens: false, noTemperature: false, noResponseFormat: false }
}

/** Builds the JSON body of one call. */
export function buildOpenAiBody(
  request: ChatRequest,
  model: string,
  stream: boolean,
  quirks: BodyQuirks,
  ollama = false,
): Record<string, unknown> {
  const format = request.responseFormat
  const messages =
    format && quirks.noResponseFormat
      ? withSchemaInstruction(request.messages, format.schema)
      : request.messages
  const body: Record<string, unknown> = { model, messages: toOpenAiMessages(messages), stream }
  if (format && !quirks.noResponseFormat) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name, schema: format.schema, strict: format.strict },
    }
    // Ollama's own field: its OpenAI endpoint reads response_format, and `format` is what its
    // native API and older builds' pass-through honour; one server may be either.
    if (ollama) body.format = format.schema
  }
  if (stream && !quirks.noStreamOptions) body.stream_options = { include_usage: true }
  const tools = request.tools ?? []
  // toolChoice 'none' omits tools entirely: some servers reject tool_choice without tools, and an
  // empty tools array is a 400 at OpenAI.
  if (request.toolChoice !== 'none' && tools.length > 0) {
    body.tools = tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }))
  }
  if (request.temperature !== undefined && !quirks.noTemperature) body.temperature = request.temperature
  if (request.maxTokens !== undefined) {
    body[quirks.maxCompletionTokens ? 'max_completion_tokens' : 'max_tokens'] = request.maxTokens
  }
  return body
}

/**
 * Adapts `quirks` to a 400 message; true when something changed and the request is worth
 * re-sending. Each quirk flips at most once, so this never loops.
 */
export function adaptQuirks(quirks: BodyQuirks, serverMessage: string, stream: boolean): boolean {
  const text = serverMessage.toLowerCase()
  if (stream && !quirks.noStreamOptions && text.includes('stream_options')) {
    quirks.noStreamOptions = true
    return true
  }
  if (!quirks.maxCompletionTokens && text.includes('max_tokens') && text.includes('max_completion_tokens')) {
    quirks.maxCompletionTokens = true
    return true
  }
  if (!quirks.noTemperature && text.includes('temperature') && /unsupported|not support/.test(text)) {
    quirks.noTemperature = true
    return true
  }
  if (!quirks.noResponseFormat && (text.includes('response_format') || text.includes('json_schema'))) {
    quirks.noResponseFormat = true
    return true
  }
  return false
}
