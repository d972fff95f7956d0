/**
 * What a CLI run is priced with and bounded by: the browser's price-table port
 * (src/app/runs/pricing.ts over @pydantic/genai-prices, imported only here so `wardflow --help`
 * does not load it) for the provider the run talks to, and the whole-run limits of
 * `--max-run-tokens` / `--max-run-cost-usd`, which win over the flow's.
 */
import type { PricingPort, RunLimits } from '../engine/run.ts'
import type { ProviderOverride } from '../providers/resolver.ts'
import { DEMO_PROVIDER, type ProviderSettings } from '../settings/schema.ts'
import type { RunOptions } from './args.ts'

export async function cliPricing(override: ProviderOverride | undefined): Promise<PricingPort> {
  const { browserPricing, loadPriceTable } = await import('../app/runs/pricing.ts')
  const table = await loadPriceTable()
  // --base-url: the one OpenAI-compatible server every model node is sent to (provider "cli");
  // otherwise the built-in demo (or a --script playing it), which costs nothing.
  const providers: ProviderSettings[] =
    override?.kind === 'openai'
      ? [
          {
            ...DEMO_PROVIDER,
            id: 'cli',
            kind: 'openai',
            baseUrl: override.baseUrl,
            model: override.model ?? '',
          },
        ]
      : [{ ...DEMO_PROVIDER }]
  return browserPricing(table, () => providers)
}

export function cliLimits(options: RunOptions): RunLimits | undefined {
  const limits: RunLimits = {}
  if (options.maxRunTokens !== undefined) limits.maxRunTokens = options.maxRunTokens
  if (options.maxRunCostUsd !== undefined) limits.maxRunCostUsd = options.maxRunCostUsd
  return Object.keys(limits).length > 0 ? limits : undefined
}
