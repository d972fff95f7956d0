/**
 * Counts a run's cost from its event stream (docs/guard.md, "Whole-run budget and cost"): each
 * `modelCall` is charged to the run's CostLedger; a `nodeFinish` with usage gets the USD of the
 * calls made inside that node (loops and sub-flows include their bodies), `runFinish` the run's
 * total and its unpriced calls. A call whose provider reported no usage counts as unpriced: its
 * tokens are an estimate, and a price is never guessed. Pure.
 */
import type { NestingSegment, RunEvent } from '../events.ts'
import type { BudgetCrossing, CostLedger } from './ledger.ts'

function keyOf(nodeId: string, nesting: readonly NestingSegment[]): string {
  return JSON.stringify([nodeId, nesting])
}

export class RunCostMeter {
  /** USD and priced-call count per node (keyOf), for its nodeFinish. */
  private readonly byNode = new Map<string, { cost: number; priced: number; calls: number }>()
  /** The budget crossing the last charged call caused, until `takeCrossing` reads it. */
  private crossing: BudgetCrossing | undefined
  /** Reported tokens of every call: a run stopped mid-node still shows what its calls used. */
  private prompt = 0
  private completion = 0
  /**
   * This run's calls and USD: the ledger may be shared by a batch's runs (sharedBudget.ts), and
   * each run's `runFinish` reports what it spent, not what the batch did.
   */
  private calls = 0
  private unpriced = 0
  private cost = 0

  constructor(readonly ledger: CostLedger) {}

  /** The hint or trip the last observed model call caused (once). */
  takeCrossing(): BudgetCrossing | undefined {
    const crossing = this.crossing
    this.crossing = undefined
    return crossing
  }

  /** Returns `event`, its usage completed with cost where it applies. */
  observe(event: RunEvent): RunEvent {
    if (event.type === 'modelCall') this.charge(event)
    else if (event.type === 'nodeFinish' && event.usage) {
      const spent = this.byNode.get(keyOf(event.nodeId, event.nesting ?? []))
      const costUsd = spent && spent.priced > 0 ? spent.cost : null
      return { ...event, usage: { ...event.usage, costUsd } }
    } else if (event.type === 'runFinish') {
      const priced = this.calls - this.unpriced
      const costUsd = this.calls > 0 && priced === 0 ? null : this.cost
      const usage = { ...event.usage, costUsd, unpricedCalls: this.unpriced }
      // Nodes that failed or that the budget cut short report no usage of their own, though
      // their calls were paid for: the run's total is what its calls used.
      if (this.prompt + this.completion > usage.total) {
        usage.prompt = this.prompt
        usage.completion = this.completion
        usage.total = this.prompt + this.completion
      }
      return { ...event, usage }
    }
    return event
  }

  private charge(event: Extract<RunEvent, { type: 'modelCall' }>): void {
    const model = this.ledger.pricedModel(event.provider, event.model, event.responseModel)
    let costUsd: number | null
    const tokens = event.usage ?? event.estimatedUsage
    if (tokens) {
      this.prompt += tokens.prompt
      this.completion += tokens.completion
      const charged = this.ledger.charge(event.provider, model, tokens, !event.usage)
      costUsd = charged.costUsd
      this.crossing = charged.crossing
    } else {
      costUsd = this.ledger.chargeUnreported(event.provider, model)
    }
    this.calls++
    if (costUsd === null) this.unpriced++
    else this.cost += costUsd
    // The node itself and every container around it (a loop's or sub-flow's node) spent it.
    const nesting = event.nesting ?? []
    const keys = [keyOf(event.nodeId, nesting)]
    for (let i = 0; i < nesting.length; i++)
      keys.push(keyOf((nesting[i] as NestingSegment).nodeId, nesting.slice(0, i)))
    for (const key of keys) {
      const spent = this.byNode.get(key) ?? { cost: 0, priced: 0, calls: 0 }
      spent.calls++
      if (costUsd !== null) {
        spent.cost += costUsd
        spent.priced++
      }
      this.byNode.set(key, spent)
    }
  }
}
