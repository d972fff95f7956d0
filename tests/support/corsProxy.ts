/**
 * A loopback proxy in front of an MCP server that breaks one CORS rule at a time (or answers
 * 401), so a test sees each failure the settings' check must word. Streams pass through.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'

export type CorsFault = 'none' | 'origin' | 'allowHeaders' | 'expose' | 'status401'

function strip(headers: IncomingHttpHeaders, fault: CorsFault): IncomingHttpHeaders {
  const out = { ...headers }
  if (fault === 'origin') delete out['access-control-allow-origin']
  if (fault === 'allowHeaders' && typeof out['access-control-allow-headers'] === 'string') {
    out['access-control-allow-headers'] = out['access-control-allow-headers']
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h.toLowerCase() !== 'mcp-protocol-version')
      .join(',')
  }
  if (fault === 'expose' && typeof out['access-control-expose-headers'] === 'string') {
    out['access-control-expose-headers'] = out['access-control-expose-headers']
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h.toLowerCase() !== 'mcp-session-id')
      .join(',')
  }
  return out
}

export interface CorsProxy {
  url: string
  fault: CorsFault
  close(): Promise<void>
}

/** Proxies `target` (http://host:port) on `port` (0: any free one); set `fault` any time. */
export function startCorsProxy(target: string, port = 0): Promise<CorsProxy> {
  const upstream = new URL(target)
  const state: CorsProxy = { url: '', fault: 'none', close: async () => undefined }
  const server: Server = createServer((req, res) => {
    if (state.fault === 'status401' && req.method !== 'OPTIONS') {
      res.writeHead(401, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
      res.end('missing or wrong token')
      return
    }
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, strip(answer.headers, state.fault))
        answer.pipe(res)
      },
    )
    forward.on('error', () => {
      res.writeHead(502)
      res.end()
    })
    req.pipe(forward)
  })
  return new Promise((done) => {
    server.listen(port, '127.0.0.1', () => {
      const address = server.address()
      const bound = typeof address === 'object' && address ? address.port : port
      state.url = `http://127.0.0.1:${bound}/mcp`
      state.close = () =>
        new Promise<void>((closed) => {
          server.closeAllConnections()
          server.close(() => closed())
        })
      done(state)
    })
  })
}
