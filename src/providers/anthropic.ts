/** Anthropic Messages API, called straight from the browser (or Node) with the person's key. */
import { ANTHROPIC_API_VERSION } from '../defaults.ts'
import type { ChatChunk, ChatRequest, LlmProvider } from '../engine/index.ts'
import type { ProviderSettings } from '../settings/schema.ts'
import { buildAnthropicBody, structuredToolOf } from './anthropicRequest.ts'
import { AnthropicStream, parseAnthropicReply } from './anthropicReply.ts'
import { chatCall } from './openaiCompatible.ts'
import { isJsonReply, streamReply, wholeReply } from './sse.ts'
import { extraHeaders, joinUrl, sendRequest, type TransportDeps } from './transport.ts'

import { ANTHROPIC_DEFAULT_BASE_URL } from '../settings/origin.ts'

/** Used when the settings leave the base URL empty (defined beside the origin rules of keys). */
export { ANTHROPIC_DEFAULT_BASE_URL }

/** `{base}/v1/{path}`, accepting base URLs given with or without the `/v1` suffix. */
export function anthropicUrl(settings: ProviderSettings, path: string): string {
  const base = settings.baseUrl.trim() === '' ? ANTHROPIC_DEFAULT_BASE_URL : settings.baseUrl.trim()
  const root = base.replace(/\/+$/, '')
  return joinUrl(/\/v1$/.test(root) ? root : `${root}/v1`, path)
}

/** x-api-key (when set), the API version, and the header Anthropic requires for browser calls. */
export function anthropicHeaders(settings: ProviderSettings): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'anthropic-version': ANTHROPIC_API_VERSION,
    'anthropic-dangerous-direct-browser-access': 'true',
  }
  if (settings.apiKey.trim() !== '') headers['x-api-key'] = settings.apiKey.trim()
  return { ...headers, ...extraHeaders(settings.headers) }
}

class AnthropicProvider implements LlmProvider {
  readonly structuredOutput = 'native'

  constructor(
    private readonly settings: ProviderSettings,
    private readonly deps: TransportDeps,
  ) {}

  get id(): string {
    return this.settings.id
  }

  async *chat(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatChunk> {
    const url = anthropicUrl(this.settings, 'messages')
    const { model, stream, target } = chatCall(this.settings, request, url)
    const headers = anthropicHeaders(this.settings)
    const body = JSON.stringify(buildAnthropicBody(request, model, stream))
    const structured = structuredToolOf(request.responseFormat)
    const call = await sendRequest(this.deps, target, () => ({ method: 'POST', headers, body }), signal)
    try {
      if (!stream || isJsonReply(call.response)) {
        yield* wholeReply(parseAnthropicReply(await call.json(), target, model, structured))
        return
      }
      yield* streamReply(call, new AnthropicStream(target, model, structured), target)
    } finally {
      call.close()
    }
  }
}

/** Creates a provider for an `anthropic` kind entry of settings. */
export function createAnthropicProvider(settings: ProviderSettings, deps: TransportDeps): LlmProvider {
  return new AnthropicProvider(settings, deps)
}
