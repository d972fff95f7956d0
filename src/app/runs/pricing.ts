/**
 * The browser's pricing port (flow-control.md, "Whole-run budget, cost and degenerate text"):
 * the engine asks a price per settings provider id and model; this maps the provider's kind and
 * base URL to the maintained price table of @pydantic/genai-prices (the CLI uses it too). The table is large, so it
 * loads with the first run that calls a model (loadPriceTable), never at page start. The settings'
 * price overrides win over the table: the exact provider and model first, then `*` and the model.
 */
import type { ModelPrice, PricingPort } from '../../engine/cost/pricing.ts'
import { PRICE_LOOKUP_REFRESH_MS } from '../../defaults.ts'
import { looksLikeOllama } from '../../providers/errors.ts'
import { ANY_PROVIDER, type PriceOverride, type ProviderSettings } from '../../settings/schema.ts'
import type { ModelPrice as GenaiModelPrice } from '@pydantic/genai-prices'

type PriceModule = typeof import('@pydantic/genai-prices')

/** The parts of the price table the port uses (tests may hand in the real module). */
export type PriceTable = Pick<PriceModule, 'calcPrice' | 'findProvider'>

let loading: Promise<PriceTable> | undefined

/** The price table, imported once on first use (its own chunk: about 830 KB of data). */
export function loadPriceTable(): Promise<PriceTable> {
  loading ??= import('@pydantic/genai-prices').catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

/** A table price: a number, or tiered (by prompt size); tiers are above 200k tokens, so the base applies. */
type TablePrice = GenaiModelPrice[string]

function perMTok(price: TablePrice): number | undefined {
  if (typeof price === 'number') return price
  if (price !== undefined && typeof price.base === 'number') return price.base
  return undefined
}

const FREE: ModelPrice = { inputPerMTok: 0, outputPerMTok: 0 }

/** True for a server on this machine (loopback, or Ollama's default port). */
function isLocal(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host) || host === '0.0.0.0'
  } catch {
    return false
  }
}

/** Where genai-prices looks the provider up: by id for the known kinds, else by its API URL. */
function tableOptions(
  provider: ProviderSettings,
): { providerId: string } | { providerApiUrl: string } | null {
  if (provider.kind === 'anthropic') return { providerId: 'anthropic' }
  const url = provider.baseUrl.trim()
  if (url === '' || /^https:\/\/api\.openai\.com(\/|$)/.test(url)) return { providerId: 'openai' }
  return { providerApiUrl: url }
}

/**
 * The price of `model` on `provider` at `at`, or null when the table does not know it (never a
 * guess). The time matters: some providers price by the hour (DeepSeek halves its prices off-peak).
 */
export function priceFromTable(
  table: PriceTable,
  provider: ProviderSettings,
  model: string,
  at: Date = new Date(),
): ModelPrice | null {
  // The built-in demo provider answers in the page and a local Ollama runs on this machine:
  // neither costs money, so their calls are priced at 0 USD rather than left unpriced.
  if (provider.kind === 'demo') return FREE
  if (looksLikeOllama(provider.baseUrl) && isLocal(provider.baseUrl)) return FREE
  const options = tableOptions(provider)
  if (options === null || model.trim() === '') return null
  // A server the table does not know by its address (a proxy, a recorder, a gateway on this
  // machine) is priced by the model's own name, which the table matches exactly; an unknown
  // name stays unpriced.
  const known = 'providerApiUrl' in options ? table.findProvider(options) !== undefined : true
  const found = table.calcPrice({}, model.trim(), { ...(known ? options : {}), timestamp: at })
  if (!found) return null
  const input = perMTok(found.model_price.input_mtok)
  const output = perMTok(found.model_price.output_mtok)
  if (input === undefined || output === undefined) return null
  const cached = perMTok(found.model_price.cache_read_mtok)
  return {
    inputPerMTok: input,
    outputPerMTok: output,
    ...(cached === undefined ? {} : { cachedInputPerMTok: cached }),
  }
}

/**
 * The settings' price of `model` on the provider with id `providerId`, if one names it: the
 * provider's own row wins over a `*` row, so one provider can be priced apart from the rest.
 */
export function overridePrice(
  overrides: readonly PriceOverride[],
  providerId: string,
  model: string,
): ModelPrice | undefined {
  const wanted = model.trim()
  const row =
    overrides.find((o) => o.provider === providerId && o.model.trim() === wanted) ??
    overrides.find((o) => o.provider === ANY_PROVIDER && o.model.trim() === wanted)
  if (row === undefined) return undefined
  return {
    inputPerMTok: row.inputUsdPerMTok,
    outputPerMTok: row.outputUsdPerMTok,
    ...(row.cachedInputUsdPerMTok === undefined ? {} : { cachedInputPerMTok: row.cachedInputUsdPerMTok }),
  }
}

/**
 * The port over the settings' providers and price overrides, read at each call as the provider
 * resolver does. A node that names no model is priced as its provider's default model. Without
 * a table (it failed to load) only the overrides price anything.
 */
export function browserPricing(
  table: PriceTable | null,
  providers: () => readonly ProviderSettings[],
  overrides: () => readonly PriceOverride[] = () => [],
  now: () => Date = () => new Date(),
): PricingPort {
  // A run asks for the same few models before and after every call: each table lookup once a
  // minute (prices that change by the hour change on a minute's edge).
  const known = new Map<string, ModelPrice | null>()
  let minute = Number.NaN
  return {
    priceFor(providerId, model) {
      const at = now()
      const thisMinute = Math.floor(at.getTime() / PRICE_LOOKUP_REFRESH_MS)
      if (thisMinute !== minute) {
        known.clear()
        minute = thisMinute
      }
      const provider = providers().find((p) => p.id === providerId)
      const effective = model || (provider?.model ?? '')
      const chosen = overridePrice(overrides(), providerId, effective)
      if (chosen !== undefined) return chosen
      const key = `${providerId}\u0000${effective}`
      const cached = known.get(key)
      if (cached !== undefined) return cached
      const price = provider && table ? priceFromTable(table, provider, effective, at) : null
      known.set(key, price)
      return price
    },
  }
}
