/**
 * The MCP bench's server (bench/mcp.bench.ts starts it as a child process): the SDK's McpServer
 * over Streamable HTTP with stateful sessions, on loopback, port MCP_BENCH_PORT (default 0: any
 * free port). Its one tool, `lookup`, waits WORK_MS (a timer, as a tool waiting on its own I/O)
 * and returns its own handling time, measured inside the handler, so the client can take it off
 * its round trip. Prints `listening <url>` on stdout once it accepts connections.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

const WORK_MS = 1

function benchServer(): McpServer {
  const server = new McpServer({ name: 'wardflow-bench', version: '1.0.0' })
  server.registerTool(
    'lookup',
    { description: 'Looks <key> up; reports its own handling time.', inputSchema: { key: z.string() } },
    async ({ key }) => {
      const start = performance.now()
      await new Promise((done) => setTimeout(done, WORK_MS))
      const text = `value of ${key}`
      return {
        content: [{ type: 'text', text: JSON.stringify({ text, handledMs: performance.now() - start }) }],
      }
    },
  )
  return server
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text === '' ? undefined : (JSON.parse(text) as unknown)
}

const sessions = new Map<string, StreamableHTTPServerTransport>()
const http = createServer((req, res) => {
  void (async () => {
    const body = req.method === 'POST' ? await readJson(req) : undefined
    const id = req.headers['mcp-session-id']
    let transport = typeof id === 'string' ? sessions.get(id) : undefined
    if (!transport) {
      if (typeof id === 'string' || req.method !== 'POST') return void res.writeHead(400).end()
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      })
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId)
      }
      await benchServer().connect(created)
      transport = created
    }
    await transport.handleRequest(req, res, body)
  })().catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(500).end(String(error))
  })
})
http.listen(Number(process.env.MCP_BENCH_PORT ?? 0), '127.0.0.1', () => {
  const { port } = http.address() as { port: number }
  console.log(`listening http://127.0.0.1:${port}/mcp`)
})
process.on('SIGTERM', () => {
  http.closeAllConnections()
  http.close(() => process.exit(0))
})
