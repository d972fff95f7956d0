/**
 * Shared plumbing of the mock model servers (mockOpenAiServer.ts, mockAnthropicServer.ts):
 * CORS, body reading, request recording, SSE writing and listening on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string
  query: string
  headers: Record<string, string>
  /** Parsed JSON body, or undefined when the body was empty or not JSON. */
  body: unknown
  rawBody: string
}

const DEFAULT_ALLOWED_HEADERS =
  'authorization, content-type, accept, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access'

/** CORS for the browser app: any origin, the headers it asks for, Retry-After readable. */
export function setCors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*')
  res.setHeader('Access-Control-Expose-Headers', 'retry-after, retry-after-ms')
  if (req.method === 'OPTIONS') {
    const asked = req.headers['access-control-request-headers']
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
    res.setHeader(
      'Access-Control-Allow-Headers',
      typeof asked === 'string' && asked !== '' ? asked : DEFAULT_ALLOWED_HEADERS,
    )
    res.setHeader('Access-Control-Max-Age', '600')
    if (req.headers['access-control-request-private-network'] === 'true') {
      res.setHeader('Access-Control-Allow-Private-Network', 'true')
    }
  }
}

export async function readRequest(req: IncomingMessage): Promise<RecordedRequest> {
  const parts: Buffer[] = []
  for await (const part of req) parts.push(part as Buffer)
  const rawBody = Buffer.concat(parts).toString('utf8')
  let body: unknown
  try {
    body = rawBody === '' ? undefined : (JSON.parse(rawBody) as unknown)
  } catch {
    body = undefined
  }
  const [path = '/', query = ''] = (req.url ?? '/').split('?')
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers[key] = value
    else if (Array.isArray(value)) headers[key] = value.join(', ')
  }
  return { method: req.method ?? 'GET', path, query, headers, body, rawBody }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers })
  res.end(JSON.stringify(value))
}

export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))
}

/** Writes SSE events with a delay between them; stops quietly when the client went away. */
export class SseWriter {
  private gone = false
  sent = 0

  constructor(
    private readonly res: ServerResponse,
    private readonly delayMs: number,
  ) {
    res.on('close', () => {
      this.gone = true
    })
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
    })
    res.flushHeaders()
  }

  get closed(): boolean {
    return this.gone
  }

  /** Writes one raw block (already SSE-formatted), after the delay when it is not the first. */
  async raw(text: string): Promise<void> {
    if (this.gone) return
    if (this.sent > 0) await sleep(this.delayMs)
    if (this.gone) return
    this.sent += 1
    await new Promise<void>((resolve) => this.res.write(text, () => resolve()))
  }

  data(value: unknown, event?: string): Promise<void> {
    const payload = typeof value === 'string' ? value : JSON.stringify(value)
    return this.raw(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`)
  }

  /** Cuts the TCP connection without finishing the chunked body: the client sees a network error. */
  drop(): void {
    this.gone = true
    this.res.socket?.destroy()
  }

  end(): void {
    if (!this.gone) this.res.end()
  }
}

export interface Listening {
  server: Server
  port: number
  url: string
  close(): Promise<void>
}

/** Listens on 127.0.0.1 (port 0 = a free port); close() also cuts open streams. */
export function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  port = 0,
  host = '127.0.0.1',
): Promise<Listening> {
  const server = createServer((req, res) => {
    setCors(req, res)
    if (req.method === 'OPTIONS') {
      res.writeHead(204)
      res.end()
      return
    }
    handler(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: 'mock_error' } })
      else res.destroy()
    })
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo
      const url = `http://${host}:${address.port}`
      resolve({
        server,
        port: address.port,
        url,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}

/** Last user message text of an OpenAI- or Anthropic-shaped message list. */
export function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return ''
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i] as { role?: unknown; content?: unknown }
    if (message.role !== 'user') continue
    if (typeof message.content === 'string') return message.content
    if (Array.isArray(message.content)) {
      const texts = message.content
        .map((block: unknown) => block as { type?: unknown; text?: unknown })
        .filter((block) => block.type === 'text' && typeof block.text === 'string')
        .map((block) => block.text as string)
      if (texts.length > 0) return texts.join('\n')
    }
  }
  return ''
}

/** Splits text into word-sized pieces (each keeps its trailing space), for token-like streaming. */
export function wordChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? []
}

/** A rough token count for mock usage figures (the mock is not a tokenizer). */
export function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4))
}
