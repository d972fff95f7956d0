/**
 * An MCP tool's reply as the text the model reads: text parts as they are, structured content
 * as JSON, images and audio as a line naming them (their bytes are not text), resources by their
 * text or address. Cut at MCP_RESULT_MAX_CHARS with a line saying so.
 */
import { MCP_RESULT_MAX_CHARS } from '../defaults.ts'
import type { McpCallResult } from '../engine/index.ts'

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** Bytes a base64 text decodes to, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding)
}

function partText(part: unknown): string {
  if (!isRecord(part)) return ''
  switch (part.type) {
    case 'text':
      return str(part.text)
    case 'image':
    case 'audio':
      return `[${part.type} ${str(part.mimeType) || 'unknown type'}, ${base64Bytes(str(part.data))} bytes]`
    case 'resource': {
      const resource = isRecord(part.resource) ? part.resource : {}
      if (typeof resource.text === 'string') return resource.text
      return `[resource ${str(resource.uri)}${resource.mimeType ? ` (${str(resource.mimeType)})` : ''}]`
    }
    case 'resource_link':
      return `[resource link ${str(part.uri)}${part.name ? ` "${str(part.name)}"` : ''}]`
    default:
      return JSON.stringify(part)
  }
}

/** The line that ends a cut reply. */
function cutLine(shown: number, total: number): string {
  return `[Reply cut: showing ${shown} of ${total} characters (limit MCP_RESULT_MAX_CHARS).]`
}

/** Cuts `text` to `max` characters (never inside a surrogate pair) and says so. */
export function cutText(text: string, max = MCP_RESULT_MAX_CHARS): string {
  if (text.length <= max) return text
  let end = max
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return `${text.slice(0, end)}\n${cutLine(end, text.length)}`
}

/** The observation text of a `tools/call` result. */
export function callResultText(result: unknown, max = MCP_RESULT_MAX_CHARS): McpCallResult {
  const reply = isRecord(result) ? result : {}
  const content = Array.isArray(reply.content) ? reply.content : []
  const parts = content.map(partText).filter((text) => text !== '')
  // A tool with an output schema may answer in `structuredContent` only.
  if (parts.length === 0 && reply.structuredContent !== undefined) {
    parts.push(JSON.stringify(reply.structuredContent))
  }
  // Older servers answer `{ toolResult }` (the SDK's compatibility shape).
  if (parts.length === 0 && reply.toolResult !== undefined) parts.push(JSON.stringify(reply.toolResult))
  return { text: cutText(parts.join('\n'), max), isError: reply.isError === true }
}
