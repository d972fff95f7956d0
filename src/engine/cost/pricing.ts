/**
 * The pricing port (docs/guard.md, "Whole-run budget and cost"): the host hands the engine a
 * price per model (a maintained table, settings overrides winning), and the engine never imports
 * the table itself. Pure arithmetic on reported token counts.
 */
import { TOKENS_PER_MTOK } from '../../defaults.ts'

/** USD per million tokens. Cached input and reasoning fall back to input and output prices. */
export interface ModelPrice {
  inputPerMTok: number
  outputPerMTok: number
  cachedInputPerMTok?: number
  reasoningPerMTok?: number
}

/** What the host provides: a price, or null when the model's price is not known (never a guess). */
export interface PricingPort {
  priceFor(provider: string, model: string): ModelPrice | null
}

/** One call's tokens: `cachedPrompt` is part of `prompt`, `reasoning` part of `completion`. */
export interface CallTokens {
  prompt: number
  completion: number
  cachedPrompt?: number
  reasoning?: number
}

/** The call's price in USD. */
export function priceCall(price: ModelPrice, tokens: CallTokens): number {
  const cached = Math.min(tokens.cachedPrompt ?? 0, tokens.prompt)
  const reasoning = Math.min(tokens.reasoning ?? 0, tokens.completion)
  const micro =
    (tokens.prompt - cached) * price.inputPerMTok +
    cached * (price.cachedInputPerMTok ?? price.inputPerMTok) +
    (tokens.completion - reasoning) * price.outputPerMTok +
    reasoning * (price.reasoningPerMTok ?? price.outputPerMTok)
  return micro / TOKENS_PER_MTOK
}

/** `base` with per-model overrides keyed "provider/model" winning over it. */
export function withOverrides(
  base: PricingPort | undefined,
  overrides: Readonly<Record<string, ModelPrice>>,
): PricingPort {
  return {
    priceFor: (provider, model) =>
      (Object.hasOwn(overrides, `${provider}/${model}`) ? overrides[`${provider}/${model}`] : undefined) ??
      base?.priceFor(provider, model) ??
      null,
  }
}
