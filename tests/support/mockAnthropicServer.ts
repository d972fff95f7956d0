/**
 * A local Anthropic Messages API mock: real HTTP and SSE (message_start, content_block_*,
 * message_delta, message_stop), scripted replies, and the request checks Anthropic makes
 * (required headers and max_tokens, no system role in messages, every tool_use answered by a
 * tool_result at the start of the next user message). Without a script it echoes the last user text.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  lastUserText,
  listen,
  readRequest,
  sendJson,
  SseWriter,
  wordChunks,
  type RecordedRequest,
} from './mockHttp.ts'

export interface MockAnthropicToolUse {
  id: string
  name: string
  /** input_json_delta pieces; joined they must be a JSON object. */
  jsonChunks: string[]
}

export interface MockAnthropicReply {
  status?: number
  headers?: Record<string, string>
  /** Error type and message of an error reply (or of `errorEvent`). */
  error?: { type: string; message: string }
  text?: string[]
  thinking?: string[]
  toolUses?: MockAnthropicToolUse[]
  /** null = no usage anywhere. */
  usage?: { input: number; output: number } | null
  stopReason?: string
  /** Send an `error` event after the text (e.g. overloaded_error). */
  errorEvent?: boolean
  dropAfterEvents?: number
  delayMs?: number
}

export interface MockAnthropicServer {
  url: string
  port: number
  requests: RecordedRequest[]
  setScript(replies: MockAnthropicReply[]): void
  close(): Promise<void>
}

type Block = { type?: unknown; id?: unknown; tool_use_id?: unknown; text?: unknown }
type Message = { role?: unknown; content?: unknown }

function blocksOf(message: Message): Block[] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }]
  return Array.isArray(message.content) ? (message.content as Block[]) : []
}

/** The 400 message Anthropic would give, or undefined when the request is acceptable. */
export function anthropicViolation(
  headers: Record<string, string>,
  body: Record<string, unknown>,
): string | undefined {
  if (headers['anthropic-version'] === undefined) return 'anthropic-version: header is required'
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required'
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : []
  if (messages.length === 0) return 'messages: at least one message is required'
  for (const [i, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `messages.${i}.role: Input should be 'user' or 'assistant'`
    }
    const blocks = blocksOf(message)
    if (blocks.some((b) => b.type === 'text' && (typeof b.text !== 'string' || b.text.trim() === ''))) {
      return `messages.${i}: text content blocks must contain non-whitespace text`
    }
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id))
    if (uses.length > 0 && body.tools === undefined)
      return 'Requests which include `tool_use` blocks must define tools.'
    const next = messages[i + 1]
    const nextBlocks = next ? blocksOf(next) : []
    const leading: string[] = []
    for (const block of nextBlocks) {
      if (block.type !== 'tool_result') break
      leading.push(String(block.tool_use_id))
    }
    const missing = uses.filter((id) => !leading.includes(id))
    if (uses.length > 0 && (next === undefined || next.role !== 'user' || missing.length > 0)) {
      return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
    }
    const prev = messages[i - 1]
    const prevUses = prev
      ? blocksOf(prev)
          .filter((b) => b.type === 'tool_use')
          .map((b) => String(b.id))
      : []
    for (const block of blocks) {
      if (block.type === 'tool_result' && !prevUses.includes(String(block.tool_use_id))) {
        return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`
      }
    }
  }
  return undefined
}

function contentOf(reply: MockAnthropicReply): unknown[] {
  const content: unknown[] = []
  if (reply.thinking) content.push({ type: 'thinking', thinking: reply.thinking.join(''), signature: 'sig' })
  if (reply.text) content.push({ type: 'text', text: reply.text.join('') })
  for (const use of reply.toolUses ?? []) {
    content.push({
      type: 'tool_use',
      id: use.id,
      name: use.name,
      input: JSON.parse(use.jsonChunks.join('') || '{}') as unknown,
    })
  }
  return content
}

function stopOf(reply: MockAnthropicReply): string {
  return reply.stopReason ?? (reply.toolUses && reply.toolUses.length > 0 ? 'tool_use' : 'end_turn')
}

async function streamReply(res: ServerResponse, reply: MockAnthropicReply, model: string): Promise<void> {
  const sse = new SseWriter(res, reply.delayMs ?? 0)
  const usage = reply.usage === null ? undefined : (reply.usage ?? { input: 10, output: 5 })
  const events: Array<[string, unknown]> = []
  events.push([
    'message_start',
    {
      type: 'message_start',
      message: {
        id: 'msg_mock',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        ...(usage ? { usage: { input_tokens: usage.input, output_tokens: 1 } } : {}),
      },
    },
  ])
  events.push(['ping', { type: 'ping' }])
  let index = 0
  const block = (start: unknown, deltas: unknown[]) => {
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: start }])
    for (const delta of deltas)
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta }])
    events.push(['content_block_stop', { type: 'content_block_stop', index }])
    index += 1
  }
  if (reply.thinking) {
    block(
      { type: 'thinking', thinking: '' },
      reply.thinking.map((t) => ({ type: 'thinking_delta', thinking: t })),
    )
  }
  if (reply.text)
    block(
      { type: 'text', text: '' },
      reply.text.map((t) => ({ type: 'text_delta', text: t })),
    )
  for (const use of reply.toolUses ?? []) {
    block(
      { type: 'tool_use', id: use.id, name: use.name, input: {} },
      use.jsonChunks.map((j) => ({ type: 'input_json_delta', partial_json: j })),
    )
  }
  if (reply.errorEvent) {
    events.push([
      'error',
      { type: 'error', error: reply.error ?? { type: 'overloaded_error', message: 'Overloaded' } },
    ])
  }
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: stopOf(reply) },
      ...(usage ? { usage: { output_tokens: usage.output } } : {}),
    },
  ])
  events.push(['message_stop', { type: 'message_stop' }])
  for (const [i, [name, data]] of events.entries()) {
    if (reply.dropAfterEvents !== undefined && i >= reply.dropAfterEvents) {
      sse.drop()
      return
    }
    await sse.data(data, name)
    if (sse.closed) return
  }
  sse.end()
}

/** Starts the Anthropic mock on 127.0.0.1 at a random free port. */
export async function startMockAnthropicServer(
  options: { apiKey?: string } = {},
): Promise<MockAnthropicServer> {
  const requests: RecordedRequest[] = []
  let queue: MockAnthropicReply[] = []

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readRequest(req)
    requests.push(request)
    if (options.apiKey !== undefined && request.headers['x-api-key'] !== options.apiKey) {
      return sendJson(res, 401, {
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
      })
    }
    if (request.method === 'GET' && request.path === '/v1/models') {
      const data = ['claude-mock-2', 'claude-mock-1'].map((id) => ({ type: 'model', id, display_name: id }))
      return sendJson(res, 200, {
        data,
        has_more: false,
        first_id: 'claude-mock-2',
        last_id: 'claude-mock-1',
      })
    }
    if (request.method !== 'POST' || request.path !== '/v1/messages') {
      return sendJson(res, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: `Unknown path ${request.path}` },
      })
    }
    const body = (request.body ?? {}) as Record<string, unknown>
    const violation = anthropicViolation(request.headers, body)
    if (violation)
      return sendJson(res, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: violation },
      })
    const model = typeof body.model === 'string' ? body.model : 'claude-mock'
    const reply = queue.shift() ?? { text: wordChunks(`Echo: ${lastUserText(body.messages)}`) }
    if (reply.status !== undefined) {
      const error = reply.error ?? { type: 'api_error', message: `Mock error ${reply.status}` }
      return sendJson(res, reply.status, { type: 'error', error }, reply.headers)
    }
    if (body.stream !== true) {
      const usage = reply.usage === null ? undefined : (reply.usage ?? { input: 10, output: 5 })
      return sendJson(res, 200, {
        id: 'msg_mock',
        type: 'message',
        role: 'assistant',
        model,
        content: contentOf(reply),
        stop_reason: stopOf(reply),
        ...(usage ? { usage: { input_tokens: usage.input, output_tokens: usage.output } } : {}),
      })
    }
    await streamReply(res, reply, model)
  }

  const server = await listen(handle)
  return {
    url: server.url,
    port: server.port,
    requests,
    setScript: (replies) => {
      queue = [...replies]
    },
    close: server.close,
  }
}
