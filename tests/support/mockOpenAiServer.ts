/**
 * A local OpenAI-compatible server for tests and e2e: real HTTP, real SSE, scripted replies.
 *
 * In tests: `const mock = await startMockOpenAiServer(); ... mock.baseUrl ... await mock.close()`.
 * Standalone (Playwright webServer):
 *   npx tsx tests/support/mockOpenAiServer.ts --port 4311 [--strict] [--delay-ms 20] [--api-key KEY]
 * prints `Mock OpenAI-compatible server: http://127.0.0.1:4311/v1` and serves until killed.
 *
 * DEFAULT SCRIPT ("echo"), used whenever no scripted reply is queued:
 *   - a plain prompt is answered `Echo: <last user message>`, streamed word by word (delay
 *     `--delay-ms` between chunks, default 20 standalone, 0 in tests), with usage in the last
 *     chunk when the request asks for it (stream_options.include_usage);
 *   - when tools are offered and no tool result follows the last user message, the reply calls
 *     the FIRST tool once, its arguments split across chunks: every string property of the tool's
 *     schema gets the user's text, numbers 1, booleans true;
 *   - after tool results it answers `Echo: tool <name> returned: <result>` (the last result);
 *   - `stream: false` gets the same replies as one JSON object.
 * Other endpoints: GET /v1/models (mock-model, mock-model-large), GET / (health),
 * POST /__mock/script `{ "replies": MockReply[], "then": "echo" | "repeat-last" }` queues replies,
 * GET /__mock/requests lists recorded requests, POST /__mock/reset clears both.
 * --strict answers HTTP 400 like OpenAI for wrongly ordered tool messages (see strictViolation).
 */
import { resolve as resolvePath } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { demoVector } from '../../src/knowledge/demoVectors.ts'
import {
  lastUserText,
  listen,
  readRequest,
  roughTokens,
  sendJson,
  SseWriter,
  wordChunks,
  type RecordedRequest,
} from './mockHttp.ts'

export type { RecordedRequest } from './mockHttp.ts'

export interface MockToolCall {
  id: string
  name: string
  arguments: string
  /** How the arguments are split across chunks; default: three pieces. */
  argumentChunks?: string[]
}

/** One scripted answer to one POST /v1/chat/completions. */
export interface MockReply {
  /** Answer with this HTTP error status instead (429, 500, 401, 404, 400...). */
  status?: number
  /** Extra response headers, e.g. `{ 'retry-after': '2' }`. */
  headers?: Record<string, string>
  /** Message of the OpenAI-shaped error body. */
  error?: string
  text?: string
  /** Exact text chunks; default: `text` split into words. */
  chunks?: string[]
  /** Reasoning deltas, sent before the text. */
  reasoning?: string[]
  reasoningField?: 'reasoning_content' | 'reasoning'
  toolCalls?: MockToolCall[]
  /** Usage to report; null = never report usage; default: a rough count. */
  usage?: { prompt: number; completion: number } | null
  /** Send usage on every chunk instead of only in the last one. */
  usageEveryChunk?: boolean
  /** Insert a line that is not JSON before the finishing chunk. */
  malformedLine?: boolean
  /** Cut the connection after this many SSE events. */
  dropAfterChunks?: number
  /** End the stream without `data: [DONE]`. */
  noDone?: boolean
  /** Finish reason of the last chunk; null = none sent. */
  finishReason?: string | null
  /** Delay between SSE events for this reply (ms). */
  delayMs?: number
  /** Answer with a JSON object even when streaming was asked for. */
  json?: boolean
  /** Put `{"error": {...}}` in the stream after the text. */
  streamError?: string
}

export interface MockOpenAiOptions {
  port?: number
  host?: string
  /** Reject wrongly ordered messages with HTTP 400, as OpenAI does. */
  strict?: boolean
  /** Delay between SSE events (ms) unless a reply sets its own. */
  delayMs?: number
  /** When set, every request must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string
  models?: string[]
  /** Answer 404 for chat requests naming a model outside `models`. */
  rejectUnknownModels?: boolean
}

export interface MockOpenAiServer {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** `http://127.0.0.1:<port>/v1`, the base URL a provider uses. */
  baseUrl: string
  port: number
  requests: RecordedRequest[]
  /** Queues replies for the next chat requests; then the echo script, or the last reply again. */
  setScript(replies: MockReply[], then?: 'echo' | 'repeat-last'): void
  close(): Promise<void>
}

interface ChatBody {
  model?: unknown
  messages?: unknown
  stream?: unknown
  stream_options?: { include_usage?: unknown }
  tools?: unknown
  tool_choice?: unknown
}

type WireMessage = { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown }

/**
 * The 400 message OpenAI gives for a badly ordered conversation, or undefined when it is fine.
 * Checks: tool results directly follow their assistant tool_calls message, each id answered
 * exactly once, no tool message without a matching call, and tool_choice only with tools.
 */
export function strictViolation(body: ChatBody): string | undefined {
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "Invalid 'messages': empty array."
  if (Array.isArray(body.tools) && body.tools.length === 0) {
    return "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead."
  }
  if (body.tool_choice !== undefined && body.tools === undefined) {
    return "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified."
  }
  let pending: string[] = []
  const messages = body.messages as WireMessage[]
  for (const [i, message] of messages.entries()) {
    if (message.role === 'tool') {
      const id = typeof message.tool_call_id === 'string' ? message.tool_call_id : ''
      if (!pending.includes(id)) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.[${i}])`
      }
      pending = pending.filter((p) => p !== id)
      continue
    }
    if (pending.length > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`
    }
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      pending = message.tool_calls.map((call: unknown) => String((call as { id?: unknown }).id ?? ''))
    }
  }
  if (pending.length > 0) {
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`
  }
  return undefined
}

/** Arguments for a tool, from its JSON Schema properties. */
function argumentsFor(tool: unknown, userText: string): string {
  const schema = (tool as { function?: { parameters?: { properties?: Record<string, { type?: unknown }> } } })
    .function?.parameters
  const args: Record<string, unknown> = {}
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    const type = property.type
    args[key] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : userText
  }
  return JSON.stringify(args)
}

let echoCalls = 0

/** The default script: echo, call the first tool once, then report the tool result. */
export function echoReply(body: ChatBody): MockReply {
  const messages = Array.isArray(body.messages) ? (body.messages as WireMessage[]) : []
  const lastUser = messages.map((m) => m.role).lastIndexOf('user')
  const toolResults = messages.slice(lastUser + 1).filter((m) => m.role === 'tool')
  const tools = Array.isArray(body.tools) ? body.tools : []
  const userText = lastUserText(body.messages)
  if (tools.length > 0 && body.tool_choice !== 'none' && toolResults.length === 0) {
    const name = String((tools[0] as { function?: { name?: unknown } }).function?.name ?? 'tool')
    echoCalls += 1
    return {
      toolCalls: [{ id: `call_echo_${echoCalls}`, name, arguments: argumentsFor(tools[0], userText) }],
    }
  }
  const lastTool = toolResults.at(-1)
  if (lastTool) {
    const call = messages
      .flatMap((m) =>
        Array.isArray(m.tool_calls)
          ? (m.tool_calls as Array<{ id?: unknown; function?: { name?: unknown } }>)
          : [],
      )
      .find((c) => c.id === lastTool.tool_call_id)
    return { text: `Echo: tool ${String(call?.function?.name ?? '?')} returned: ${String(lastTool.content)}` }
  }
  return { text: `Echo: ${userText}` }
}

function splitInThree(text: string): string[] {
  if (text.length < 3) return [text]
  const a = Math.floor(text.length / 3)
  return [text.slice(0, a), text.slice(a, 2 * a), text.slice(2 * a)]
}

function chatChunk(model: string, delta: Record<string, unknown>, finish: string | null = null) {
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  }
}

function usageOf(reply: MockReply, body: ChatBody) {
  if (reply.usage === null) return undefined
  const prompt = reply.usage?.prompt ?? roughTokens(JSON.stringify(body.messages ?? ''))
  const completion =
    reply.usage?.completion ?? roughTokens((reply.text ?? '') + JSON.stringify(reply.toolCalls ?? []))
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

function finishOf(reply: MockReply): string | null {
  if (reply.finishReason !== undefined) return reply.finishReason
  return reply.toolCalls && reply.toolCalls.length > 0 ? 'tool_calls' : 'stop'
}

function sendWholeReply(res: ServerResponse, reply: MockReply, body: ChatBody, model: string): void {
  const calls = reply.toolCalls ?? []
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.text ?? (calls.length > 0 ? null : ''),
  }
  if (reply.reasoning) message[reply.reasoningField ?? 'reasoning_content'] = reply.reasoning.join('')
  if (calls.length > 0) {
    message.tool_calls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }))
  }
  const usage = usageOf(reply, body)
  sendJson(res, 200, {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: finishOf(reply) }],
    ...(usage ? { usage } : {}),
  })
}

async function streamReply(
  res: ServerResponse,
  reply: MockReply,
  body: ChatBody,
  model: string,
  delayMs: number,
) {
  const sse = new SseWriter(res, reply.delayMs ?? delayMs)
  const wantsUsage = body.stream_options?.include_usage === true
  const usage = usageOf(reply, body)
  const events: unknown[] = [chatChunk(model, { role: 'assistant', content: '' })]
  for (const piece of reply.reasoning ?? [])
    events.push(chatChunk(model, { [reply.reasoningField ?? 'reasoning_content']: piece }))
  for (const piece of reply.chunks ?? wordChunks(reply.text ?? ''))
    events.push(chatChunk(model, { content: piece }))
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const [head = '', ...rest] = call.argumentChunks ?? splitInThree(call.arguments)
    events.push(
      chatChunk(model, {
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: head } },
        ],
      }),
    )
    for (const piece of rest)
      events.push(chatChunk(model, { tool_calls: [{ index, function: { arguments: piece } }] }))
  }
  if (reply.streamError) events.push({ error: { message: reply.streamError, type: 'server_error' } })
  if (reply.malformedLine) events.push('{"choices": [ {broken json')
  const finish = finishOf(reply)
  if (finish !== null) events.push(chatChunk(model, {}, finish))
  if (usage && wantsUsage)
    events.push({
      id: 'chatcmpl-mock',
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [],
      usage,
    })
  if (!reply.noDone) events.push('[DONE]')
  for (const [i, event] of events.entries()) {
    if (reply.dropAfterChunks !== undefined && i >= reply.dropAfterChunks) {
      sse.drop()
      return
    }
    let value = event
    if (reply.usageEveryChunk && usage && typeof event === 'object' && event !== null)
      value = { ...event, usage }
    await sse.data(value)
    if (sse.closed) return
  }
  sse.end()
}

/** Starts the mock on 127.0.0.1 (a random free port unless `port` is given). */
export async function startMockOpenAiServer(options: MockOpenAiOptions = {}): Promise<MockOpenAiServer> {
  const requests: RecordedRequest[] = []
  let queue: MockReply[] = []
  let then: 'echo' | 'repeat-last' = 'echo'
  let last: MockReply | undefined
  const models = options.models ?? ['mock-model', 'mock-model-large']
  const setScript = (replies: MockReply[], next: 'echo' | 'repeat-last' = 'echo') => {
    queue = [...replies]
    then = next
    last = undefined
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readRequest(req)
    const path = request.path.replace(/\/+$/, '')
    if (path.startsWith('/__mock/')) {
      if (path === '/__mock/requests') return sendJson(res, 200, requests)
      if (path === '/__mock/reset') {
        requests.length = 0
        setScript([])
        return sendJson(res, 200, { ok: true })
      }
      if (path === '/__mock/script') {
        const script = request.body as { replies?: MockReply[]; then?: 'echo' | 'repeat-last' } | undefined
        setScript(script?.replies ?? [], script?.then)
        return sendJson(res, 200, { ok: true, queued: queue.length })
      }
    }
    requests.push(request)
    if (path === '' || path === '/') return sendJson(res, 200, { ok: true, service: 'wardflow mock openai' })
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      const message =
        'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.'
      return sendJson(res, 401, {
        error: { message, type: 'invalid_request_error', code: 'invalid_api_key' },
      })
    }
    if (request.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      return sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', owned_by: 'mock' })),
      })
    }
    const embeddings = embeddingsReply(request.method, path, request.body)
    if (embeddings !== undefined) return sendJson(res, 200, embeddings)
    if (request.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) {
      return sendJson(res, 404, {
        error: { message: `Unknown path ${request.path}`, type: 'invalid_request_error' },
      })
    }
    const body = (request.body ?? {}) as ChatBody
    const model = typeof body.model === 'string' ? body.model : 'mock-model'
    if (options.rejectUnknownModels && !models.includes(model)) {
      const message = `The model \`${model}\` does not exist or you do not have access to it.`
      return sendJson(res, 404, {
        error: { message, type: 'invalid_request_error', code: 'model_not_found' },
      })
    }
    const violation = options.strict ? strictViolation(body) : undefined
    if (violation)
      return sendJson(res, 400, {
        error: { message: violation, type: 'invalid_request_error', param: 'messages', code: null },
      })
    let reply = queue.shift()
    if (reply) last = reply
    else reply = then === 'repeat-last' && last ? last : echoReply(body)
    if (reply.status !== undefined) {
      const message = reply.error ?? `Mock error ${reply.status}`
      return sendJson(
        res,
        reply.status,
        { error: { message, type: 'mock_error', code: reply.status } },
        reply.headers,
      )
    }
    if (body.stream !== true || reply.json) return sendWholeReply(res, reply, body, model)
    await streamReply(res, reply, body, model, options.delayMs ?? 0)
  }

  const server = await listen(handle, options.port ?? 0, options.host ?? '127.0.0.1')
  return {
    url: server.url,
    baseUrl: `${server.url}/v1`,
    port: server.port,
    requests,
    setScript,
    close: server.close,
  }
}

/**
 * OpenAI's `POST /v1/embeddings` and Ollama's `POST /api/embed`, answered with the demo's
 * deterministic vectors of each input (texts sharing words point the same way).
 */
function embeddingsReply(method: string, path: string, body: unknown): unknown {
  if (method !== 'POST') return undefined
  const raw = (body as { input?: unknown } | undefined)?.input
  const input = (Array.isArray(raw) ? raw : [raw]).map(String)
  const vectors = input.map((text) => Array.from(demoVector(text)))
  if (path === '/v1/embeddings' || path === '/embeddings') {
    return {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    }
  }
  if (path === '/api/embed') return { embeddings: vectors }
  return undefined
}

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

async function main(args: string[]): Promise<void> {
  const server = await startMockOpenAiServer({
    port: Number(argValue(args, '--port') ?? 4311),
    host: argValue(args, '--host') ?? '127.0.0.1',
    strict: args.includes('--strict'),
    delayMs: Number(argValue(args, '--delay-ms') ?? 20),
    apiKey: argValue(args, '--api-key'),
  })
  console.log(
    `Mock OpenAI-compatible server: ${server.baseUrl}${args.includes('--strict') ? ' (strict)' : ''}`,
  )
  const stop = () => void server.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolvePath(process.argv[1])).href) {
  void main(process.argv.slice(2))
}
