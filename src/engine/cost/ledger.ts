/**
 * One cost ledger per run (docs/guard.md, "Whole-run budget and cost"): every model call is
 * charged here (tokens, and USD when priced), checked against the run's limits before it is made
 * (prediction) and after (the hint at RUN_BUDGET_HINT_RATIO, the trip past the limit). Pure.
 */
import { RUN_BUDGET_HINT_RATIO } from '../../defaults.ts'
import { priceCall, type CallTokens, type PricingPort } from './pricing.ts'

/** Whole-run limits; absent or 0 = none. */
export interface RunLimits {
  maxRunTokens?: number
  maxRunCostUsd?: number
}

/** What the ledger spent so far: `costUsd` sums priced calls, null when none was priced. */
export interface CostSnapshot {
  calls: number
  tokens: number
  costUsd: number | null
  unpricedCalls: number
}

export type BudgetCrossing = { level: 'hint' | 'trip'; unit: 'tokens' | 'usd'; total: number; budget: number }

export class CostLedger {
  private calls = 0
  private tokens = 0
  private cost = 0
  private unpriced = 0
  private hinted = false
  tripped = false

  constructor(
    private readonly pricing: PricingPort | undefined,
    readonly limits: RunLimits = {},
    private readonly hintRatio = RUN_BUDGET_HINT_RATIO,
  ) {}

  /** The call's price in USD, or null when its model has no known price. */
  priceOf(provider: string, model: string, tokens: CallTokens): number | null {
    const price = this.pricing?.priceFor(provider, model) ?? null
    return price ? priceCall(price, tokens) : null
  }

  /**
   * The name to price a call by: the model asked for when it has a price (a price override names
   * what the flow asks for, as the before-call check does), else the one the reply names (a
   * proxy's alias the table does not know, answered by a model it does).
   */
  pricedModel(provider: string, asked: string, replied: string | undefined): string {
    if (asked !== '' && (this.pricing?.priceFor(provider, asked) ?? null) !== null) return asked
    return replied || asked
  }

  /** Before a call: the crossing the call would cause (null: it may be made). */
  predict(provider: string, model: string, tokens: CallTokens): BudgetCrossing | null {
    const cost = this.priceOf(provider, model, tokens)
    return this.over(this.tokens + tokens.prompt + tokens.completion, cost === null ? null : this.cost + cost)
  }

  /** Charges one call; returns its cost and the hint or trip it caused (when it caused one). */
  charge(
    provider: string,
    model: string,
    tokens: CallTokens,
    estimated = false,
  ): { costUsd: number | null; crossing?: BudgetCrossing } {
    // Estimated tokens count toward a token limit; their price would be a guess, unless free.
    const price = this.priceOf(provider, model, tokens)
    const costUsd = estimated && price !== 0 ? null : price
    this.calls++
    this.tokens += tokens.prompt + tokens.completion
    if (costUsd === null) this.unpriced++
    else this.cost += costUsd
    const trip = this.over(this.tokens, this.cost)
    if (trip) {
      this.tripped = true
      return { costUsd, crossing: trip }
    }
    const hint = this.hinted ? null : this.near()
    if (hint) this.hinted = true
    return hint ? { costUsd, crossing: hint } : { costUsd }
  }

  /** Whether the model costs nothing (the demo, a local server): known to be free, not unknown. */
  private isFree(provider: string, model: string): boolean {
    const price = this.pricing?.priceFor(provider, model)
    return !!price && price.inputPerMTok === 0 && price.outputPerMTok === 0
  }

  /** Counts a call whose tokens were not reported: unpriced (null), unless its model is free (0). */
  chargeUnreported(provider: string, model: string): number | null {
    this.calls++
    if (this.isFree(provider, model)) return 0
    this.unpriced++
    return null
  }

  snapshot(): CostSnapshot {
    const priced = this.calls - this.unpriced
    return {
      calls: this.calls,
      tokens: this.tokens,
      costUsd: this.calls > 0 && priced === 0 ? null : this.cost,
      unpricedCalls: this.unpriced,
    }
  }

  private over(tokens: number, cost: number | null): BudgetCrossing | null {
    const { maxRunTokens = 0, maxRunCostUsd = 0 } = this.limits
    if (maxRunTokens > 0 && tokens > maxRunTokens)
      return { level: 'trip', unit: 'tokens', total: tokens, budget: maxRunTokens }
    if (maxRunCostUsd > 0 && cost !== null && cost > maxRunCostUsd)
      return { level: 'trip', unit: 'usd', total: cost, budget: maxRunCostUsd }
    return null
  }

  private near(): BudgetCrossing | null {
    const { maxRunTokens = 0, maxRunCostUsd = 0 } = this.limits
    if (maxRunTokens > 0 && this.tokens >= maxRunTokens * this.hintRatio)
      return { level: 'hint', unit: 'tokens', total: this.tokens, budget: maxRunTokens }
    if (maxRunCostUsd > 0 && this.cost >= maxRunCostUsd * this.hintRatio)
      return { level: 'hint', unit: 'usd', total: this.cost, budget: maxRunCostUsd }
    return null
  }
}
