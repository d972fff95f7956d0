/**
 * An OTLP/HTTP trace receiver for tests, on node:http at 127.0.0.1: what a collector's OTLP
 * receiver does for JSON (POST /v1/traces, `Content-Type: application/json`, a body of
 * `ExportTraceServiceRequest` in the protobuf JSON mapping; 200 with an
 * `ExportTraceServiceResponse`, 400 for a body that is not one, 415 for another type), plus a
 * GET /v1/traces that reads the stored spans back, as jest-opentelemetry's receiver does.
 * No maintained JS OTLP receiver is published on npm, and neither the OpenTelemetry Collector
 * nor Jaeger is packaged in Debian, so the tests start this one (see docs/tracing.md).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the collector's base URL. */
  url: string
  /** Every accepted request's headers and decoded body, in order. */
  received: Array<{ headers: IncomingHttpHeaders; body: unknown }>
  close(): Promise<void>
}

export interface OtlpReceiverOptions {
  /** When set, a POST without `authorization: <value>` is answered 401. */
  authorization?: string
}

function isExportRequest(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false
  const rs = (body as { resourceSpans?: unknown }).resourceSpans
  return (
    Array.isArray(rs) &&
    rs.every(
      (r: { scopeSpans?: unknown }) =>
        Array.isArray(r.scopeSpans) && r.scopeSpans.every((s: { spans?: unknown }) => Array.isArray(s.spans)),
    )
  )
}

export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const received: OtlpReceiver['received'] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const answer = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.url !== '/v1/traces') return answer(404, { code: 5, message: 'not found' })
      if (req.method === 'GET')
        return answer(
          200,
          received.map((r) => r.body),
        )
      if (req.method !== 'POST') return answer(405, { code: 12, message: 'method not allowed' })
      if (options.authorization !== undefined && req.headers.authorization !== options.authorization)
        return answer(401, { code: 16, message: 'unauthenticated' })
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
        return answer(415, { code: 3, message: 'only application/json here' })
      let body: unknown
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        return answer(400, { code: 3, message: 'not JSON' })
      }
      if (!isExportRequest(body)) return answer(400, { code: 3, message: 'not an ExportTraceServiceRequest' })
      received.push({ headers: req.headers, body })
      answer(200, { partialSuccess: {} })
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((done) => server.close(() => done())),
  }
}
