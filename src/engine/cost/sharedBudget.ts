/**
 * One whole-run budget for several outermost runs (flow-control.md: "The whole-run budget
 * applies to the batch as a whole"): a batch hands the same SharedRunBudget to every row's run
 * (`RunContext.sharedBudget`), each run's RunBudget charges the one ledger, and the call that
 * crosses a limit stops every run still going while the host (src/batch/pool.ts) starts no new
 * one. Pure.
 *
 * The ledger is made by the first run that joins, from that run's pricing and effective limits
 * (host defaults, the flow's `metadata.limits`, the host's override): every row of a batch runs
 * the same flow with the same host settings, so the limits are the ones a single run would have,
 * and the host never works them out a second way.
 */
import { CostLedger, type CostSnapshot, type RunLimits } from './ledger.ts'
import type { PricingPort } from './pricing.ts'
import { formatAmount, formatUsd } from './runBudget.ts'

export class SharedRunBudget {
  private shared: CostLedger | undefined
  /** Each running member's stop; a run leaves when it ends, so a long batch holds only its running rows. */
  private readonly members = new Set<() => void>()
  private stopped = false

  /** A run joins: the ledger to charge, and `leave` for when it ends. `stop` ends that run. */
  join(
    pricing: PricingPort | undefined,
    limits: RunLimits,
    stop: () => void,
  ): { ledger: CostLedger; leave: () => void } {
    this.shared ??= new CostLedger(pricing, limits)
    this.members.add(stop)
    return { ledger: this.shared, leave: () => this.members.delete(stop) }
  }

  /** True once a member tripped (after a call, or a call refused before it was made). */
  get spent(): boolean {
    return this.stopped || (this.shared?.tripped ?? false)
  }

  /** Stops every member still running (once); later joiners stop at their start. */
  trip(): void {
    if (this.stopped) return
    this.stopped = true
    for (const stop of [...this.members]) stop()
  }

  /** What all members spent together; undefined before any run joined. */
  snapshot(): CostSnapshot | undefined {
    return this.shared?.snapshot()
  }

  /** The limits the members share (those of the first run that joined). */
  get limits(): RunLimits {
    return this.shared?.limits ?? {}
  }

  /** Why the members stopped, for a batch's skipped rows and its end: each limit, used and set. */
  reason(): string {
    const spent = this.snapshot()
    const { maxRunTokens = 0, maxRunCostUsd = 0 } = this.limits
    const parts: string[] = []
    if (maxRunTokens > 0)
      parts.push(
        `${formatAmount('tokens', spent?.tokens ?? 0)} used of ${formatAmount('tokens', maxRunTokens)}`,
      )
    // Unpriced calls leave the cost unknown: never shown as $0.
    const cost = spent?.costUsd
    if (maxRunCostUsd > 0)
      parts.push(
        cost === null || cost === undefined
          ? `an unknown cost (unpriced calls) of ${formatUsd(maxRunCostUsd)}`
          : `${formatUsd(cost)} of ${formatUsd(maxRunCostUsd)}`,
      )
    return `The batch's run budget is spent: ${parts.join(', ')}.`
  }
}
