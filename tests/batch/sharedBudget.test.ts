/**
 * One whole-run budget for a batch (flow-control.md: "The whole-run budget applies to the batch
 * as a whole"): the pool runs real engine runs that share one SharedRunBudget. Rows are charged
 * together (each alone is far below the limit), the call that crosses it stops the rows running,
 * no new row starts, the rest are skipped with the reason, and each row still reports its own usage.
 */
import { describe, expect, it } from 'vitest'
import { columnInputs } from '../../src/batch/mapping.ts'
import { runBatchPool } from '../../src/batch/pool.ts'
import { RowResultCollector, type RowResult } from '../../src/batch/result.ts'
import type { DataRow } from '../../src/batch/rows.ts'
import { runFlow, SharedRunBudget, type FlowDocument, type RunEvent } from '../../src/engine/run.ts'
import type { PricingPort } from '../../src/engine/cost/pricing.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { flow, testContext } from '../support/flowBuilders.ts'
import { scriptedProvider, type ScriptStep } from '../support/scriptedProvider.ts'

/** Input -> LLM -> Output, limited to 250 tokens by its file. */
function doc(): FlowDocument {
  const built = flow()
    .node('in', 'input', { values: { speed: 'fast' } })
    .node('a', 'llm', { prompt: 'Go {{in.speed}}', model: 'gpt-x' })
    .node('out', 'output', { values: { text: '{{a.response}}' } })
    .chain('in', 'a', 'out')
    .build()
  built.metadata.limits = { maxRunTokens: 250 }
  return built
}

const pricing: PricingPort = { priceFor: () => ({ inputPerMTok: 1, outputPerMTok: 10 }) }

function rows(values: string[]): Iterator<DataRow[]> {
  return [values.map((speed, index) => ({ index, values: { speed } }))][Symbol.iterator]()
}

/** Runs `speeds` as a batch; every row's run gets the same provider and the shared budget. */
async function batch(speeds: string[], concurrency: number, step: ScriptStep) {
  const provider = scriptedProvider([step])
  const budget = new SharedRunBudget()
  const events = new Map<number, RunEvent[]>()
  const results: RowResult[] = []
  const outcome = await runBatchPool({
    rows: rows(speeds),
    concurrency,
    budget,
    async runRow(row) {
      const { ctx } = testContext({ provider, pricing })
      const collector = new RowResultCollector(row.index, ['out'])
      const seen: RunEvent[] = []
      const runCtx = {
        ...ctx,
        runId: `row_${row.index}`,
        inputs: columnInputs(row.values),
        sharedBudget: budget,
      }
      for await (const event of runFlow(doc(), engineRegistry, runCtx)) {
        seen.push(event)
        collector.push(event)
      }
      events.set(row.index, seen)
      return collector.result()
    },
    onResult: (result) => results.push(result),
  })
  results.sort((x, y) => x.row - y.row)
  return { outcome, results, events, provider, budget }
}

const statuses = (results: RowResult[]) => results.map((r) => r.status)

describe('a batch shares one whole-run budget', () => {
  it('charges the rows together: the 3rd row crosses it, the rest are skipped', async () => {
    const { outcome, results, events, provider, budget } = await batch(['a', 'b', 'c', 'd', 'e'], 1, {
      text: 'ok',
      usage: { prompt: 90, completion: 10 },
    })
    expect(statuses(results)).toEqual(['success', 'success', 'stopped', 'skipped', 'skipped'])
    // The hint is the batch's, once: in the row whose call passed 80 % (200 of 250).
    const guards = [...events.entries()].flatMap(([row, seen]) =>
      seen.flatMap((e) => (e.type === 'guard' ? [[row, e.level, e.total]] : [])),
    )
    expect(guards).toEqual([
      [1, 'hint', 200],
      [2, 'trip', 300],
    ])
    expect(provider.requests).toHaveLength(3)
    expect(events.get(2)?.at(-1)).toMatchObject({
      type: 'runFinish',
      status: 'stopped',
      stopReason: 'budget',
    })
    // Each row reports what it spent, not the batch's running total.
    for (const r of results.slice(0, 3)) expect(r.usage).toMatchObject({ total: 100 })
    expect(results[0]?.usage.costUsd).toBeCloseTo(0.00019, 10)
    expect(budget.snapshot()).toMatchObject({ calls: 3, tokens: 300 })
    const reason = "The batch's run budget is spent: 300 tokens used of 250 tokens."
    expect(results.slice(3).map((r) => r.error)).toEqual([reason, reason])
    expect(outcome).toMatchObject({ endedEarly: reason, budgetSpent: true })
  })

  it("a row's trip stops the other rows running, and no new row starts", async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    // The slow row's call is still in flight when the fast row's call (300 tokens) crosses the line.
    const step: ScriptStep = async (request) => {
      const slow = JSON.stringify(request.messages).includes('slow')
      if (slow) await gate
      return { text: 'ok', usage: { prompt: 290, completion: 10 } }
    }
    const { outcome, results, events } = await batch(['slow', 'fast', 'c', 'd'], 2, step)
    release()
    expect(statuses(results)).toEqual(['stopped', 'stopped', 'skipped', 'skipped'])
    expect(events.get(0)).toContainEqual(
      expect.objectContaining({ type: 'nodeError', nodeId: 'a', code: 'RUN_BUDGET' }),
    )
    expect(events.get(0)).toContainEqual(
      expect.objectContaining({ type: 'nodeSkipped', nodeId: 'out', reason: 'budget' }),
    )
    expect(events.get(0)?.at(-1)).toMatchObject({
      type: 'runFinish',
      status: 'stopped',
      stopReason: 'budget',
    })
    expect(events.has(2)).toBe(false)
    expect(outcome.budgetSpent).toBe(true)
  })

  it('a batch within its budget runs every row', async () => {
    const { outcome, results } = await batch(['a', 'b'], 2, {
      text: 'ok',
      usage: { prompt: 50, completion: 10 },
    })
    expect(statuses(results)).toEqual(['success', 'success'])
    expect(outcome.endedEarly).toBeUndefined()
  })

  it('a run that joins a budget already spent stops at its start and makes no call', async () => {
    const budget = new SharedRunBudget()
    budget.join(undefined, { maxRunTokens: 1 }, () => undefined)
    budget.trip()
    const provider = scriptedProvider([{ text: 'never', usage: { prompt: 1, completion: 1 } }])
    const { ctx } = testContext({ provider, sharedBudget: budget })
    const seen: RunEvent[] = []
    for await (const event of runFlow(doc(), engineRegistry, ctx)) seen.push(event)
    expect(provider.requests).toHaveLength(0)
    expect(seen.at(-1)).toMatchObject({ type: 'runFinish', status: 'stopped', stopReason: 'budget' })
  })

  it('rows in flight at once all pass the check, and every call made is charged to the batch', async () => {
    // Known limit (docs/guard.md): the prediction sees what is charged, not calls in flight, so
    // up to `concurrency` calls may pass it together; each of them is still charged.
    const { provider, budget } = await batch(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], 8, {
      text: 'ok',
      usage: { prompt: 90, completion: 10 },
    })
    const made = provider.requests.length
    expect(budget.snapshot()?.calls).toBe(made)
    expect(budget.snapshot()?.tokens).toBe(made * 100)
  })
})
