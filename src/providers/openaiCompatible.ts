/**
 * OpenAI-compatible chat completions: OpenAI, DeepSeek, Gemini's OpenAI endpoint, Ollama,
 * LM Studio, vLLM and any server speaking the same protocol at a custom base URL.
 */
import { FlowError, type ChatChunk, type ChatRequest, type LlmProvider } from '../engine/index.ts'
import type { ProviderSettings } from '../settings/schema.ts'
import { looksLikeOllama, type CallTarget } from './errors.ts'
import { adaptQuirks, buildOpenAiBody, defaultQuirks } from './openaiRequest.ts'
import { OpenAiStream, parseOpenAiReply } from './openaiReply.ts'
import { isJsonReply, streamReply, wholeReply } from './sse.ts'
import { extraHeaders, joinUrl, sendRequest, type TransportDeps } from './transport.ts'

/** The model a call uses: the node's, else the provider's default; never empty. */
export function pickModel(settings: ProviderSettings, requested: string): string {
  const model = requested.trim() !== '' ? requested.trim() : settings.model.trim()
  if (model === '') {
    throw new FlowError(
      'PROVIDER_BAD_REQUEST',
      `No model is set for ${settings.label || settings.id}: name one on the node, or a default model in Settings.`,
    )
  }
  return model
}

/** What every chat call settles first: the model, whether to stream, and where the call goes. */
export function chatCall(
  settings: ProviderSettings,
  request: ChatRequest,
  url: string,
): { model: string; stream: boolean; target: CallTarget } {
  const model = pickModel(settings, request.model)
  const stream = request.stream ?? settings.stream
  return { model, stream, target: { label: settings.label || settings.id, model, url } }
}

/** The base URL, or a clear error when the settings have none. */
export function requireBaseUrl(settings: ProviderSettings): string {
  const base = settings.baseUrl.trim()
  if (base === '') {
    throw new FlowError(
      'PROVIDER_BAD_REQUEST',
      `${settings.label || settings.id} has no base URL; set it in Settings (e.g. https://api.openai.com/v1).`,
    )
  }
  return base
}

/** Request headers: JSON, the bearer key only when one is set, then the settings' extra headers. */
export function openAiHeaders(settings: ProviderSettings): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (settings.apiKey.trim() !== '') headers.Authorization = `Bearer ${settings.apiKey.trim()}`
  return { ...headers, ...extraHeaders(settings.headers) }
}

class OpenAiCompatibleProvider implements LlmProvider {
  readonly structuredOutput = 'native'
  private calls = 0

  constructor(
    private readonly settings: ProviderSettings,
    private readonly deps: TransportDeps,
  ) {}

  get id(): string {
    return this.settings.id
  }

  async *chat(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatChunk> {
    const url = joinUrl(requireBaseUrl(this.settings), 'chat/completions')
    const { model, stream, target } = chatCall(this.settings, request, url)
    const idPrefix = `call_${this.settings.id}_${(this.calls += 1)}_`
    const quirks = defaultQuirks()
    const headers = openAiHeaders(this.settings)
    if (stream) headers.Accept = 'text/event-stream'
    const call = await sendRequest(
      this.deps,
      target,
      () => ({
        method: 'POST',
        headers,
        body: JSON.stringify(buildOpenAiBody(request, model, stream, quirks, looksLikeOllama(url))),
      }),
      signal,
      (message) => adaptQuirks(quirks, message, stream),
    )
    try {
      if (!stream || isJsonReply(call.response)) {
        yield* wholeReply(parseOpenAiReply(await call.json(), target, model, idPrefix))
        return
      }
      yield* streamReply(call, new OpenAiStream(target, model, idPrefix), target)
    } finally {
      call.close()
    }
  }
}

/** Creates a provider for an `openai` kind entry of settings. */
export function createOpenAiCompatibleProvider(settings: ProviderSettings, deps: TransportDeps): LlmProvider {
  return new OpenAiCompatibleProvider(settings, deps)
}
