/** Model lists for the pickers, and the Settings "Test connection" button. */
import { z } from 'zod'
import { ANTHROPIC_MODELS_PAGE_LIMIT } from '../defaults.ts'
import { FlowError, type FetchLike, type FlowErrorCode } from '../engine/index.ts'
import type { ProviderSettings } from '../settings/schema.ts'
import { anthropicHeaders, anthropicUrl } from './anthropic.ts'
import {
  badResponseError,
  extractServerMessage,
  fromThrown,
  httpStatusError,
  networkError,
  type CallTarget,
} from './errors.ts'
import { openAiHeaders, requireBaseUrl } from './openaiCompatible.ts'
import { joinUrl } from './transport.ts'

// OpenAI, Anthropic and most servers answer `{data:[{id}]}`; a few answer `{models:[{name}]}`.
const modelListSchema = z.union([
  z.object({ data: z.array(z.object({ id: z.string() })) }),
  z.object({ models: z.array(z.object({ id: z.string().optional(), name: z.string().optional() })) }),
])

function requestFor(settings: ProviderSettings): { url: string; headers: Record<string, string> } {
  if (settings.kind === 'anthropic') {
    return {
      url: `${anthropicUrl(settings, 'models')}?limit=${ANTHROPIC_MODELS_PAGE_LIMIT}`,
      headers: anthropicHeaders(settings),
    }
  }
  return { url: joinUrl(requireBaseUrl(settings), 'models'), headers: openAiHeaders(settings) }
}

/**
 * Lists the models a provider offers, sorted by name (a demo provider offers `demo`). One
 * request, no retries: the person is waiting on a button. Throws PROVIDER_* FlowErrors.
 */
export async function listModels(
  settings: ProviderSettings,
  fetch: FetchLike,
  signal: AbortSignal,
): Promise<string[]> {
  if (settings.kind === 'demo') return ['demo']
  const { url, headers } = requestFor(settings)
  const target: CallTarget = { label: settings.label || settings.id, model: settings.model, url }
  const { 'Content-Type': _json, ...getHeaders } = headers
  let response: Response
  try {
    response = await fetch(url, { method: 'GET', headers: getHeaders, signal })
  } catch (error) {
    throw fromThrown(error, signal, (cause) => networkError(cause, target))
  }
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    throw fromThrown(error, signal, (cause) => networkError(cause, target))
  }
  if (!response.ok) {
    if (response.status === 404) {
      throw new FlowError(
        'PROVIDER_BAD_REQUEST',
        `${target.label} has no model list at ${url} (HTTP 404). Check the base URL; you can still type a model name by hand.`,
        { details: { status: 404, url } },
      )
    }
    throw httpStatusError(response.status, extractServerMessage(text), target)
  }
  let json: unknown
  try {
    json = JSON.parse(text) as unknown
  } catch (error) {
    throw badResponseError(target, 'the model list is not JSON', error)
  }
  const parsed = modelListSchema.safeParse(json)
  if (!parsed.success) throw badResponseError(target, 'the model list has no data[].id', parsed.error)
  const names =
    'data' in parsed.data
      ? parsed.data.data.map((model) => model.id)
      : parsed.data.models.map((model) => model.id ?? model.name ?? '')
  return [...new Set(names.filter((name) => name !== ''))].sort((a, b) => a.localeCompare(b))
}

export interface ConnectionTestResult {
  ok: boolean
  /** Plain English, for the CLI and logs; the UI may use `code`/`count` with its own catalogue. */
  message: string
  models?: string[]
  /** The FlowError code when the test failed. */
  code?: FlowErrorCode
}

/** Tries to list the models and says what happened in words a person can act on. */
export async function testConnection(
  settings: ProviderSettings,
  fetch: FetchLike,
  signal: AbortSignal,
): Promise<ConnectionTestResult> {
  try {
    const models = await listModels(settings, fetch, signal)
    const label = settings.label || settings.id
    const message =
      settings.kind === 'demo'
        ? `${label} is the offline demo provider: it needs no connection.`
        : `Connected to ${label}: ${models.length} ${models.length === 1 ? 'model' : 'models'} available.`
    return { ok: true, message, models }
  } catch (error) {
    const flowError = fromThrown(
      error,
      signal,
      (cause) => new FlowError('INTERNAL', String(cause), { cause }),
    )
    return { ok: false, message: flowError.message, code: flowError.code }
  }
}
