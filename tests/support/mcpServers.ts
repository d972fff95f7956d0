/**
 * Real MCP servers for the tests, on loopback: `@modelcontextprotocol/server-everything` (a
 * child process, Streamable HTTP or stdio), and a small server written here with the SDK's
 * McpServer whose tools exercise the Agent's guard: a poll whose result changes, one whose
 * result never does, a failing tool, a slow one, a destructive one, one that kills the server.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

export const EVERYTHING_BIN = resolve(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
)
/** `--mcp` value starting server-everything over stdio. */
export const EVERYTHING_STDIO = `stdio:${process.execPath} ${EVERYTHING_BIN} stdio`

export interface RunningServer {
  url: string
  port: number
  close(): Promise<void>
}

/** Starts server-everything over Streamable HTTP on `port` (ports 4350-4359 are this suite's). */
export function startEverything(port: number): Promise<RunningServer & { child: ChildProcess }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let log = ''
    const onData = (chunk: Buffer): void => {
      log += chunk.toString()
      if (log.includes('listening on port')) {
        child.stderr?.off('data', onData)
        child.stderr?.resume()
        done({
          url: `http://127.0.0.1:${port}/mcp`,
          port,
          child,
          close: () =>
            new Promise<void>((closed) => {
              if (child.exitCode !== null || child.signalCode !== null) return closed()
              child.once('exit', () => closed())
              child.kill('SIGTERM')
            }),
        })
      } else if (log.includes('Failed to start')) fail(new Error(log))
    }
    child.stderr?.on('data', onData)
    child.once('error', fail)
    child.once('exit', (code) => fail(new Error(`server-everything exited (${code}): ${log}`)))
  })
}

/** What the small server's tools saw. */
export interface TestServerState {
  polls: number
  slowAborted: boolean
  slowStarted: boolean
  destroyed: string[]
}

function testMcpServer(state: TestServerState, kill: () => void): McpServer {
  const server = new McpServer({ name: 'wardflow-test', version: '1.0.0' })
  server.registerTool(
    'poll_job',
    { description: 'Reports how far job <id> is.', inputSchema: { id: z.string() } },
    async ({ id }) => {
      state.polls += 1
      return { content: [{ type: 'text', text: `job ${id}: ${Math.min(100, state.polls * 30)}%` }] }
    },
  )
  server.registerTool(
    'same_result',
    { description: 'Always answers the same.', inputSchema: { q: z.string() } },
    async () => ({ content: [{ type: 'text', text: '[]' }] }),
  )
  server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => {
    throw new Error('disk quota exceeded on the test server')
  })
  server.registerTool(
    'slow',
    { description: 'Answers after <ms> milliseconds.', inputSchema: { ms: z.number() } },
    async ({ ms }, extra) => {
      state.slowStarted = true
      await new Promise<void>((done) => {
        const timer = setTimeout(done, ms)
        extra.signal.addEventListener('abort', () => {
          state.slowAborted = true
          clearTimeout(timer)
          done()
        })
      })
      return { content: [{ type: 'text', text: `slept ${ms} ms` }] }
    },
  )
  server.registerTool(
    'delete_file',
    {
      description: 'Deletes <path>. <b>Careful</b>.',
      inputSchema: { path: z.string() },
      annotations: { destructiveHint: true },
    },
    async ({ path }) => {
      state.destroyed.push(path)
      return { content: [{ type: 'text', text: `deleted ${path}` }] }
    },
  )
  server.registerTool(
    'big',
    { description: 'A long reply.', inputSchema: { chars: z.number() } },
    async ({ chars }) => ({
      content: [{ type: 'text', text: 'x'.repeat(chars) }],
    }),
  )
  server.registerTool('die', { description: 'Stops the server mid-call.', inputSchema: {} }, async () => {
    kill()
    return new Promise(() => undefined)
  })
  return server
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text === '' ? undefined : (JSON.parse(text) as unknown)
}

/**
 * The small server over Streamable HTTP (stateful sessions, as most servers are), on `port`
 * (0: any free port). `cors` adds the headers a browser needs.
 */
export async function startTestServer(
  port = 0,
  options: { cors?: boolean } = {},
): Promise<RunningServer & { state: TestServerState; http: Server }> {
  const state: TestServerState = { polls: 0, slowAborted: false, slowStarted: false, destroyed: [] }
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const kill = (): void => {
    http.closeAllConnections()
    http.close()
  }
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (options.cors) {
      res.setHeader('access-control-allow-origin', '*')
      res.setHeader(
        'access-control-allow-headers',
        'content-type, mcp-protocol-version, mcp-session-id, authorization',
      )
      res.setHeader('access-control-allow-methods', 'GET, POST, DELETE')
      res.setHeader('access-control-expose-headers', 'mcp-session-id')
      if (req.method === 'OPTIONS') return void res.writeHead(204).end()
    }
    const body = req.method === 'POST' ? await readJson(req) : undefined
    const id = req.headers['mcp-session-id']
    let transport = typeof id === 'string' ? sessions.get(id) : undefined
    if (!transport) {
      if (typeof id === 'string' || req.method !== 'POST') {
        res.writeHead(400, { 'content-type': 'application/json' })
        return void res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'Bad Request: Server not initialized' },
            id: null,
          }),
        )
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      })
      await testMcpServer(state, kill).connect(created)
      transport = created
    }
    await transport.handleRequest(req, res, body)
  }
  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error))
    })
  })
  await new Promise<void>((done) => http.listen(port, '127.0.0.1', done))
  const actual = (http.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    port: actual,
    state,
    http,
    close: () =>
      new Promise<void>((done) => {
        http.closeAllConnections()
        http.close(() => done())
        if (!http.listening) done()
      }),
  }
}
