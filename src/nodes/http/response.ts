/** Reading an HTTP response safely: a byte cap enforced while streaming, then JSON or text. */
import { FlowError } from '../../engine/index.ts'

/** Reads the whole body, refusing (and cancelling the download) once it passes `maxBytes`. */
export async function readBodyCapped(
  response: Response,
  maxBytes: number,
  nodeId?: string,
): Promise<Uint8Array> {
  const tooLarge = (): FlowError =>
    new FlowError(
      'HTTP_TOO_LARGE',
      `The response is larger than ${formatBytes(maxBytes)}, the most an HTTP node reads. Ask the server for less data (paging, filters).`,
      { nodeId, details: { maxBytes } },
    )
  const declared = Number(response.headers.get('content-length') ?? '')
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge()
  }
  if (!response.body) return new Uint8Array(0)
  const reader = response.body.getReader()
  const parts: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    parts.push(value)
  }
  const out = new Uint8Array(total)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.byteLength
  }
  return out
}

/** The first `maxBytes` of the body (or all of a shorter one); the rest is cancelled unread. */
export async function readBodyPrefix(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0)
  const reader = response.body.getReader()
  const out = new Uint8Array(maxBytes)
  let total = 0
  try {
    while (total < maxBytes) {
      const { done, value } = await reader.read()
      if (done) break
      const part = value.subarray(0, maxBytes - total)
      out.set(part, total)
      total += part.byteLength
    }
  } finally {
    reader.cancel().catch(() => undefined)
  }
  return out.subarray(0, total)
}

export function formatBytes(bytes: number): string {
  const mib = 1024 * 1024
  if (bytes >= mib) return `${+(bytes / mib).toFixed(1)} MB`
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`
  return `${bytes} bytes`
}

/** True for `application/json`, `application/problem+json` and the like. */
export function isJsonContentType(contentType: string | null): boolean {
  return contentType !== null && /^[^;]*[/+]json\s*(;|$)/i.test(contentType)
}

function decode(bytes: Uint8Array, contentType: string | null): string {
  const charset = /charset="?([^";\s]+)/i.exec(contentType ?? '')?.[1]
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes)
  } catch {
    // An unknown charset label: UTF-8 is the best guess and never throws.
    return new TextDecoder().decode(bytes)
  }
}

export interface ParsedBody {
  body: unknown
  text: string
  /** False when the server said JSON but sent something else; the body is then the text. */
  jsonOk: boolean
}

/** Parses JSON when the content type says JSON; otherwise returns the text as is. */
export function parseBody(bytes: Uint8Array, contentType: string | null): ParsedBody {
  const text = decode(bytes, contentType)
  if (!isJsonContentType(contentType) || text.trim() === '') return { body: text, text, jsonOk: true }
  try {
    return { body: JSON.parse(text) as unknown, text, jsonOk: true }
  } catch {
    return { body: text, text, jsonOk: false }
  }
}

/**
 * Milliseconds a Retry-After header asks for (delta-seconds or an HTTP date), or undefined when
 * absent or unreadable.
 */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.trim() === '') return undefined
  const trimmed = header.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs)
}
