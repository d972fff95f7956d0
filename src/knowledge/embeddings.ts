/**
 * Embeddings from a provider: OpenAI-compatible `POST {baseUrl}/embeddings` and Ollama's
 * `POST {root}/api/embed`, or the demo's local vectors. Texts go in batches of
 * KNOWLEDGE_EMBED_BATCH_TEXTS; replies are checked with zod before a vector is kept, and a
 * failure is a FlowError naming the server and what it said. fetch is injected (browser, Node).
 */
import { z } from 'zod'
import { KNOWLEDGE_EMBED_BATCH_TEXTS } from '../defaults.ts'
import { FlowError, type FetchLike } from '../engine/index.ts'
import { demoVector } from './demoVectors.ts'

export type Embedder =
  | { kind: 'demo' }
  | {
      kind: 'openai' | 'ollama'
      /** OpenAI-compatible: the provider's base URL (…/v1). Ollama: its root or its …/v1 URL. */
      baseUrl: string
      model: string
      apiKey?: string
      headers?: ReadonlyArray<{ key: string; value: string }>
      /** Named in messages. */
      label?: string
    }

const openAiReply = z.object({
  data: z.array(
    z.object({ index: z.number().int().nonnegative().optional(), embedding: z.array(z.number()) }),
  ),
})
const ollamaReply = z.object({ embeddings: z.array(z.array(z.number())) })

/** Ollama's native API lives at its root; a settings URL usually ends with /v1 (its OpenAI face). */
export function ollamaRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')
}

export async function embedTexts(
  embedder: Embedder,
  texts: readonly string[],
  fetch: FetchLike,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  if (embedder.kind === 'demo') return texts.map((text) => demoVector(text))
  const out: Float32Array[] = []
  for (let start = 0; start < texts.length; start += KNOWLEDGE_EMBED_BATCH_TEXTS) {
    const batch = texts.slice(start, start + KNOWLEDGE_EMBED_BATCH_TEXTS)
    out.push(...(await embedBatch(embedder, batch, fetch, signal)))
  }
  return out
}

async function embedBatch(
  embedder: Exclude<Embedder, { kind: 'demo' }>,
  input: readonly string[],
  fetch: FetchLike,
  signal: AbortSignal | undefined,
): Promise<Float32Array[]> {
  const url =
    embedder.kind === 'ollama'
      ? `${ollamaRoot(embedder.baseUrl)}/api/embed`
      : `${embedder.baseUrl.replace(/\/+$/, '')}/embeddings`
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  for (const { key, value } of embedder.headers ?? []) if (key !== '' && value !== '') headers[key] = value
  if (embedder.apiKey !== undefined && embedder.apiKey !== '')
    headers.Authorization = `Bearer ${embedder.apiKey}`
  const who = embedder.label ?? url
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: embedder.model, input }),
      ...(signal === undefined ? {} : { signal }),
    })
  } catch (cause) {
    if (signal?.aborted === true) throw new FlowError('CANCELLED', 'Embedding was cancelled.', { cause })
    const reason = cause instanceof Error ? cause.message : String(cause)
    throw new FlowError('PROVIDER_NETWORK', `Could not reach ${who} for embeddings: ${reason}`, { cause })
  }
  const text = await response.text()
  if (!response.ok) {
    throw new FlowError(
      response.status === 401 || response.status === 403 ? 'PROVIDER_AUTH' : 'PROVIDER_BAD_REQUEST',
      `${who} refused the embeddings request for model ${embedder.model} (HTTP ${response.status}): ${text.slice(0, 300)}`,
    )
  }
  let body: unknown
  try {
    body = JSON.parse(text) as unknown
  } catch (cause) {
    throw new FlowError(
      'PROVIDER_BAD_RESPONSE',
      `${who} answered the embeddings request with something that is not JSON.`,
      { cause },
    )
  }
  const vectors = embedder.kind === 'ollama' ? parseOllama(body) : parseOpenAi(body)
  if (vectors === undefined || vectors.length !== input.length) {
    throw new FlowError(
      'PROVIDER_BAD_RESPONSE',
      `${who} did not answer with one embedding per text (${input.length} asked).`,
    )
  }
  return vectors.map((vector) => Float32Array.from(vector))
}

function parseOpenAi(body: unknown): number[][] | undefined {
  const parsed = openAiReply.safeParse(body)
  if (!parsed.success) return undefined
  // The API may answer out of order; `index` says which text each vector is for.
  return [...parsed.data.data]
    .map((item, position) => ({ index: item.index ?? position, embedding: item.embedding }))
    .sort((a, b) => a.index - b.index)
    .map((item) => item.embedding)
}

function parseOllama(body: unknown): number[][] | undefined {
  const parsed = ollamaReply.safeParse(body)
  return parsed.success ? parsed.data.embeddings : undefined
}
