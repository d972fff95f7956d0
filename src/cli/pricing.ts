/**
 * What a CLI run is priced with and bounded by: the bundled price table (src/cost/priceTable.ts,
 * imported only here so `wardflow --help` does not load it) for the provider the run talks to, and
 * the whole-run limits of `--max-run-tokens` / `--max-run-cost-usd`, which win over the flow's.
 */
import type { PricingPort, RunLimits } from '../engine/run.ts'
import type { ProviderOverride } from '../providers/resolver.ts'
import type { RunOptions } from './args.ts'

export async function cliPricing(override: ProviderOverride | undefined): Promise<PricingPort> {
  const { priceTable } = await import('../cost/priceTable.ts')
  return priceTable((id) => {
    // --base-url: the one OpenAI-compatible server every model node is sent to (provider "cli").
    if (override?.kind === 'openai') return { kind: 'openai', baseUrl: override.baseUrl }
    // Otherwise the built-in demo (or a --script playing it), which costs nothing.
    return id === 'demo' || override?.kind === 'script' ? { kind: 'demo' } : undefined
  })
}

export function cliLimits(options: RunOptions): RunLimits | undefined {
  const limits: RunLimits = {}
  if (options.maxRunTokens !== undefined) limits.maxRunTokens = options.maxRunTokens
  if (options.maxRunCostUsd !== undefined) limits.maxRunCostUsd = options.maxRunCostUsd
  return Object.keys(limits).length > 0 ? limits : undefined
}
