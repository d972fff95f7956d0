/**
 * The HTTP node's request: templated parts, http(s) only, a timeout joined with the run's Stop,
 * retries with backoff on 429/5xx (Retry-After honoured), a size cap while reading, and errors a
 * person can act on (CORS and network failures are explained, not just reported).
 */
import {
  FlowError,
  isAbortError,
  valueToText,
  type NodeExecution,
  type NodeResult,
} from '../../engine/index.ts'
import {
  HTTP_BACKOFF_BASE_MS,
  HTTP_BACKOFF_MAX_MS,
  HTTP_ERROR_BODY_MAX_CHARS,
  HTTP_MAX_RESPONSE_BYTES,
  HTTP_RETRY_AFTER_MAX_MS,
} from '../../defaults.ts'
import { HTTP_METHODS, type HttpConfig } from './schema.ts'
import { parseBody, readBodyCapped, readBodyPrefix, retryAfterMs } from './response.ts'
import { resolveRequestUrl } from './url.ts'

/** A character is at most 4 bytes of UTF-8, so this many bytes hold the error snippet. */
const UTF8_MAX_BYTES_PER_CHAR = 4

export interface PreparedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

/** Resolves templates and checks method and URL; throws INVALID_CONFIG or HTTP_BAD_URL. */
export function prepareRequest(
  config: HttpConfig,
  resolve: (template: string, field: string) => string,
  nodeId?: string,
  /** Site-relative URLs (`./x`) resolve against it (RunContext.baseUrl). */
  baseUrl?: string,
): PreparedRequest {
  const method = resolve(config.method, 'method').trim().toUpperCase() || 'GET'
  if (!(HTTP_METHODS as readonly string[]).includes(method)) {
    throw new FlowError(
      'INVALID_CONFIG',
      `"${method}" is not an HTTP method. Use one of ${HTTP_METHODS.join(', ')}.`,
      { nodeId },
    )
  }
  const url = resolveRequestUrl(resolve(config.url, 'url').trim(), baseUrl, nodeId)
  for (const [i, { key, value }] of config.query.entries()) {
    const name = resolve(key, `query[${i}].key`).trim()
    if (name !== '') url.searchParams.append(name, resolve(value, `query[${i}].value`))
  }
  const headers: Record<string, string> = {}
  for (const [i, { key, value }] of config.headers.entries()) {
    const name = resolve(key, `headers[${i}].key`).trim()
    if (name !== '') headers[name] = resolve(value, `headers[${i}].value`)
  }
  const body = resolve(config.body, 'body')
  const sendsBody = method !== 'GET' && method !== 'HEAD' && body !== ''
  return { method, url: url.toString(), headers, ...(sendsBody ? { body } : {}) }
}

function networkError(error: unknown, url: string, nodeId: string): FlowError {
  // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND...) is its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''
  const detail = error instanceof Error ? `${error.message}${cause}` : String(error)
  return new FlowError(
    'HTTP_NETWORK',
    `Could not reach ${new URL(url).origin} (${detail}). Check the URL and your connection. In a browser this is ` +
      'also what a CORS refusal looks like: the server must send Access-Control-Allow-Origin for this page, ' +
      'or call it through a proxy or from the CLI.',
    { nodeId, cause: error },
  )
}

function cancelled(nodeId: string): FlowError {
  return new FlowError('CANCELLED', 'The run was stopped.', { nodeId })
}

export async function executeHttp(exec: NodeExecution<HttpConfig>): Promise<NodeResult> {
  const { node, config, ctx, signal, emit } = exec
  const request = prepareRequest(config, exec.resolve, node.id, ctx.baseUrl)
  for (let attempt = 0; ; attempt++) {
    const timeout = AbortSignal.timeout(config.timeoutMs)
    const combined = AbortSignal.any([signal, timeout])
    const timedOut = (): FlowError =>
      new FlowError('HTTP_TIMEOUT', `No complete answer from ${request.url} within ${config.timeoutMs} ms.`, {
        nodeId: node.id,
        details: { timeoutMs: config.timeoutMs },
      })
    emit.chunk(`${request.method} ${request.url}${attempt > 0 ? ` (attempt ${attempt + 1})` : ''}\n`, 'log')
    let response: Response
    try {
      response = await ctx.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: combined,
      })
    } catch (error) {
      if (signal.aborted) throw cancelled(node.id)
      if (timeout.aborted || isAbortError(error)) throw timedOut()
      throw networkError(error, request.url, node.id)
    }
    emit.chunk(`${response.status} ${response.statusText}\n`, 'log')
    const retryable = response.status === 429 || response.status >= 500
    if (retryable && attempt < config.retries) {
      const asked = retryAfterMs(response.headers.get('retry-after'), ctx.clock.now())
      const waitMs = asked ?? Math.min(HTTP_BACKOFF_MAX_MS, HTTP_BACKOFF_BASE_MS * 2 ** attempt)
      if (waitMs <= HTTP_RETRY_AFTER_MAX_MS) {
        await response.body?.cancel().catch(() => undefined)
        emit.chunk(`Retrying in ${waitMs} ms (${attempt + 1} of ${config.retries})\n`, 'log')
        try {
          await ctx.clock.sleep(waitMs, signal)
        } catch {
          throw cancelled(node.id)
        }
        continue
      }
    }
    let bytes: Uint8Array
    try {
      // An error shows only the start of its body: the rest is never downloaded.
      bytes = response.ok
        ? await readBodyCapped(response, HTTP_MAX_RESPONSE_BYTES, node.id)
        : await readBodyPrefix(response, HTTP_ERROR_BODY_MAX_CHARS * UTF8_MAX_BYTES_PER_CHAR)
    } catch (error) {
      if (error instanceof FlowError) throw error
      if (signal.aborted) throw cancelled(node.id)
      if (timeout.aborted) throw timedOut()
      throw networkError(error, request.url, node.id)
    }
    const contentType = response.headers.get('content-type')
    const parsed = parseBody(bytes, contentType)
    if (!response.ok) {
      const snippet = parsed.text.slice(0, HTTP_ERROR_BODY_MAX_CHARS)
      throw new FlowError(
        'HTTP_STATUS',
        `${request.url} answered ${response.status} ${response.statusText}${snippet ? `: ${snippet}` : ''}`,
        {
          nodeId: node.id,
          details: { status: response.status },
        },
      )
    }
    if (!parsed.jsonOk)
      emit.chunk(`The server said ${contentType} but the body is not valid JSON; kept as text.\n`, 'log')
    emit.chunk(typeof parsed.body === 'string' ? parsed.body : valueToText(parsed.body), 'output')
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name] = value
    })
    return { output: { status: response.status, ok: response.ok, headers, body: parsed.body } }
  }
}
