/**
 * Which embedder a knowledge base uses, from how it was made (`KnowledgeEmbedding`) and the
 * settings of the provider it names: the demo's local vectors, an OpenAI-compatible server's
 * `/embeddings`, or Ollama's `/api/embed` (a provider whose URL looks like Ollama's). The key is
 * read from settings when the base indexes or is searched, unlocked first when keys are locked.
 * A base naming a provider that is gone, or one without embeddings, fails saying which.
 */
import { FlowError } from '../../engine/index.ts'
import type { Embedder } from '../../knowledge/embeddings.ts'
import { looksLikeOllama } from '../../providers/errors.ts'
import type { AppSettings, ProviderSettings } from '../../settings/schema.ts'
import type { KnowledgeEmbedding } from '../../storage/knowledgeRows.ts'

export interface EmbedderKeys {
  isLocked(): boolean
  /** Asks for the passphrase; true once the keys are unlocked. */
  requestUnlock?(): Promise<boolean>
}

export type EmbedderFor = (embedding: KnowledgeEmbedding, baseId: string) => Promise<Embedder | undefined>

/** Providers that offer embeddings: OpenAI-compatible servers (Ollama among them) and the demo. */
export function offersEmbeddings(provider: Pick<ProviderSettings, 'kind'>): boolean {
  return provider.kind === 'openai' || provider.kind === 'demo'
}

export function createEmbedderFor(settings: () => AppSettings, keys?: EmbedderKeys): EmbedderFor {
  return async (embedding, baseId) => {
    if (embedding.kind === 'none') return undefined
    if (embedding.kind === 'demo') return { kind: 'demo' }
    const find = () => settings().providers.find((p) => p.id === embedding.providerId)
    const provider = find()
    if (provider === undefined) {
      throw new FlowError(
        'KNOWLEDGE_FAILED',
        `Knowledge base "${baseId}" embeds with provider "${embedding.providerId}", which is not in Settings: add it again (same id) or make the base anew.`,
        { details: { base: baseId, provider: embedding.providerId } },
      )
    }
    if (provider.kind === 'demo') return { kind: 'demo' }
    if (!offersEmbeddings(provider)) {
      throw new FlowError(
        'KNOWLEDGE_FAILED',
        `Provider "${provider.label || provider.id}" of knowledge base "${baseId}" offers no embeddings.`,
        { details: { base: baseId, provider: provider.id } },
      )
    }
    if (keys?.isLocked() === true && !(await (keys.requestUnlock?.() ?? Promise.resolve(false)))) {
      throw new FlowError(
        'KEY_LOCKED',
        `The API key of ${provider.label || provider.id} is locked; unlock your keys with your passphrase in Settings, then try again.`,
        { details: { provider: provider.id } },
      )
    }
    const current = find() ?? provider
    return {
      kind: looksLikeOllama(current.baseUrl) ? 'ollama' : 'openai',
      baseUrl: current.baseUrl,
      model: embedding.model,
      apiKey: current.apiKey,
      headers: current.headers,
      label: current.label || current.id,
    }
  }
}
