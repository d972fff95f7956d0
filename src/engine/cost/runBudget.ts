/**
 * The whole-run budget (flow-control.md, "Whole-run budget, cost and degenerate text"; docs/guard.md):
 * one CostLedger per outermost run, shared by every LLM and Agent call in it, loops, sub-flows
 * and Agent tools included (they inherit the run's context). Before each call the budget predicts
 * it (the prompt's estimate, as the Agent's budget does): a call that would exceed is not made. After each
 * call the ledger is charged (RunCostMeter): the first pass of 80 % sends a hint, going past a
 * limit a trip. Either trip stops the whole run (`stopRun`: running nodes stop, nothing new
 * starts, `runFinish.status: "stopped"`, `stopReason: "budget"`). Pure.
 */
import { FlowError } from '../errors.ts'
import type { GuardAlert } from '../events.ts'
import type { ChatRequest, TokenEstimator } from '../ports.ts'
import { estimatePromptTokens, promptTokensCeiling } from '../agent/tokens.ts'
import { CostLedger, type BudgetCrossing, type RunLimits } from './ledger.ts'
import type { PricingPort } from './pricing.ts'
import type { SharedRunBudget } from './sharedBudget.ts'

/** US dollars as people read them: cents, and four decimals below a dollar (the CLI prints it too). */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`
}

/** A limit as people read it: tokens as a count, dollars by formatUsd. */
export function formatAmount(unit: BudgetCrossing['unit'], value: number): string {
  return unit === 'tokens' ? `${Math.round(value)} tokens` : formatUsd(value)
}

/** The exact console line of a run-budget crossing (docs/guard.md). */
export function runBudgetMessage(crossing: BudgetCrossing, next?: number): string {
  const { unit, total, budget } = crossing
  if (crossing.level === 'hint')
    return `[Run Budget Warning] The run has used ${formatAmount(unit, total)} of its budget of ${formatAmount(unit, budget)}.`
  if (next !== undefined)
    return `[Run Budget Exceeded] The next model call (about ${next} tokens) would take the run to ${formatAmount(unit, total)}, over its budget of ${formatAmount(unit, budget)}. Stopping the run.`
  return `[Run Budget Exceeded] The run has used ${formatAmount(unit, total)}, over its budget of ${formatAmount(unit, budget)}. Stopping the run.`
}

/** The guard alert of a crossing, for the node whose call crossed the line. */
export function runBudgetAlert(
  crossing: BudgetCrossing,
  phase: 'before-call' | 'after-call',
  next?: number,
): GuardAlert {
  return {
    layer: 'budget',
    scope: 'run',
    level: crossing.level,
    unit: crossing.unit,
    total: crossing.total,
    budget: crossing.budget,
    phase,
    message: runBudgetMessage(crossing, next),
  }
}

/** Whether limits bound anything (0 or absent = none). */
export function hasLimits(limits: RunLimits): boolean {
  return (limits.maxRunTokens ?? 0) > 0 || (limits.maxRunCostUsd ?? 0) > 0
}

/**
 * The run's limits: the host's defaults (settings), then the flow file's `metadata.limits`, then
 * the host's explicit override (CLI flags), each limit set only where the later one gives it.
 */
export function effectiveLimits(
  defaults: RunLimits | undefined,
  flow: RunLimits | undefined,
  override: RunLimits | undefined,
): RunLimits {
  const pick = (key: keyof RunLimits): number | undefined => override?.[key] ?? flow?.[key] ?? defaults?.[key]
  const limits: RunLimits = {}
  const tokens = pick('maxRunTokens')
  const usd = pick('maxRunCostUsd')
  if (tokens !== undefined) limits.maxRunTokens = tokens
  if (usd !== undefined) limits.maxRunCostUsd = usd
  return limits
}

export class RunBudget {
  readonly ledger: CostLedger
  /** Set once a trip stopped the run: later calls are refused without asking again. */
  private stopped = false
  /** Leaves the shared budget (a batch's) when the run ends; undefined: the ledger is this run's. */
  private readonly leave: (() => void) | undefined

  constructor(
    pricing: PricingPort | undefined,
    limits: RunLimits,
    private readonly estimate: TokenEstimator,
    private readonly stopRun: () => void,
    private readonly shared?: SharedRunBudget,
  ) {
    if (shared) {
      // Another member's trip stops this run as its own would.
      const joined = shared.join(pricing, limits, () => this.trip())
      this.ledger = joined.ledger
      this.leave = joined.leave
    } else {
      this.ledger = new CostLedger(pricing, limits)
      this.leave = undefined
    }
  }

  /** A run that joined a shared budget already spent stops at once (nothing of it is charged). */
  stopIfSpent(): void {
    if (this.shared?.spent) this.trip()
  }

  /** The run ended: a shared budget no longer stops it. */
  close(): void {
    this.leave?.()
  }

  /**
   * Before a model call: resolves when it may be made; otherwise reports the trip through
   * `guard` (the calling node's console), stops the run and throws RUN_BUDGET.
   */
  async beforeCall(
    provider: string,
    request: ChatRequest,
    guard: (alert: GuardAlert) => void,
  ): Promise<void> {
    if (this.stopped || this.ledger.tripped || this.shared?.spent) {
      // Spent by another run of the batch: this run stops as well (trip is once per run).
      this.trip()
      throw this.refusal()
    }
    if (!hasLimits(this.ledger.limits)) return
    // As the Agent's own budget does: the prompt alone is predicted (the reply's length is not
    // known; `maxTokens` is a ceiling most replies stay far below), the reply is charged after.
    // Counting a long prompt costs far more than the rest of the bookkeeping (about 0.1 ms for
    // 3 KB): a call whose ceiling cannot cross a limit is let through uncounted.
    const ceiling = promptTokensCeiling(request)
    if (!this.ledger.predict(provider, request.model, { prompt: ceiling, completion: 0 })) return
    const prompt = await estimatePromptTokens(request, this.estimate)
    const crossing = this.ledger.predict(provider, request.model, { prompt, completion: 0 })
    if (!crossing) return
    guard(runBudgetAlert(crossing, 'before-call', prompt))
    this.trip()
    throw this.refusal()
  }

  /** Whether a call with no reported usage must be counted by the tokenizer: a token limit. */
  countsTokens(): boolean {
    return (this.ledger.limits.maxRunTokens ?? 0) > 0
  }

  /** A call's tokens by the tokenizer, for a provider that reported none (null: it failed). */
  async estimateCall(
    request: ChatRequest,
    reply: string,
  ): Promise<{ prompt: number; completion: number } | null> {
    try {
      const [prompt, completion] = await Promise.all([
        estimatePromptTokens(request, this.estimate),
        reply === '' ? Promise.resolve(0) : this.estimate(reply),
      ])
      return { prompt, completion }
    } catch {
      return null
    }
  }

  /** After a call was charged past a limit: stops the run (once), and every run sharing its budget. */
  trip(): void {
    if (this.stopped) return
    this.stopped = true
    this.stopRun()
    this.shared?.trip()
  }

  private refusal(): FlowError {
    return new FlowError('RUN_BUDGET', 'The run budget is spent: the call was not made.')
  }
}
