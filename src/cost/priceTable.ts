/**
 * The engine's pricing port (engine/cost/pricing.ts) over @pydantic/genai-prices: a maintained
 * price table (per-model input, output and cached-input prices, updated with each release,
 * bundled: no network). The package is large (~0.8 MB), so hosts import this module lazily, when
 * a run starts. A model the table does not know has no price (null): the run counts its calls as
 * unpriced and never guesses.
 */
import { calcPrice, type PriceOptions } from '@pydantic/genai-prices'
import type { ModelPrice, PricingPort } from '../engine/cost/pricing.ts'

/** What the table needs to know of a settings provider. */
export interface PricedProvider {
  /** 'demo', 'openai' (any OpenAI-compatible server), 'anthropic', 'ollama'. */
  kind: string
  baseUrl?: string
}

/** The built-in demo and a local Ollama cost no money: their calls are priced at 0 USD. */
const FREE_KINDS = new Set(['demo', 'ollama'])
const FREE: ModelPrice = { inputPerMTok: 0, outputPerMTok: 0 }

/** A table price: a number, or tiered by prompt size (then its base tier, the usual case). */
function rate(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (value !== null && typeof value === 'object' && 'base' in value && typeof value.base === 'number')
    return value.base
  return undefined
}

function lookup(model: string, options: PriceOptions): ModelPrice | null {
  const found = calcPrice({ input_tokens: 1 }, model, options)
  if (!found) return null
  const input = rate(found.model_price['input_mtok'])
  const output = rate(found.model_price['output_mtok'])
  if (input === undefined || output === undefined) return null
  const cached = rate(found.model_price['cache_read_mtok'])
  return {
    inputPerMTok: input,
    outputPerMTok: output,
    ...(cached === undefined ? {} : { cachedInputPerMTok: cached }),
  }
}

/**
 * Prices by the provider's kind and address: Anthropic's table for an Anthropic provider, the
 * table of the provider whose API the base URL is (api.openai.com, openrouter, groq...), else the
 * model's own name across providers (a local or proxy server serving "gpt-4o-mini").
 */
export function priceTable(providerOf: (id: string) => PricedProvider | undefined): PricingPort {
  const cache = new Map<string, ModelPrice | null>()
  return {
    priceFor(providerId, model) {
      const provider = providerOf(providerId)
      if (provider && FREE_KINDS.has(provider.kind)) return FREE
      if (model === '') return null
      const key = `${providerId}\u0000${model}`
      if (cache.has(key)) return cache.get(key) ?? null
      let price: ModelPrice | null = null
      try {
        if (provider?.kind === 'anthropic') price = lookup(model, { providerId: 'anthropic' })
        else if (provider?.baseUrl) price = lookup(model, { providerApiUrl: provider.baseUrl })
        price ??= lookup(model, {})
      } catch {
        // A model name the table's matchers cannot read is simply unknown.
        price = null
      }
      cache.set(key, price)
      return price
    },
  }
}
