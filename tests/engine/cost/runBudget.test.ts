/**
 * The whole-run budget on real runs: a call that would exceed is never made; the hint at 80 %;
 * a trip past the limit stops the node that is running and skips what never started; the run
 * ends stopped by its budget; dollars with a price table; the flow's limits and the host's.
 */
import { describe, expect, it } from 'vitest'
import type { FlowDocument, RunEvent, RunLimits } from '../../../src/engine/run.ts'
import { effectiveLimits, runBudgetMessage } from '../../../src/engine/run.ts'
import type { PricingPort } from '../../../src/engine/cost/pricing.ts'
import { flow, testContext } from '../../support/flowBuilders.ts'
import { ManualClock } from '../../support/manualClock.ts'
import { scriptedProvider, type ScriptedProvider } from '../../support/scriptedProvider.ts'
import { runWithClock } from '../../nodes/runNodes.ts'

/** Three LLM nodes in a chain: each call reports 100 tokens (90 in, 10 out). */
function chain(limits?: RunLimits): FlowDocument {
  const doc = flow()
    .node('a', 'llm', { prompt: 'one', model: 'gpt-x' })
    .node('b', 'llm', { prompt: 'two {{a.text}}', model: 'gpt-x' })
    .node('c', 'llm', { prompt: 'three {{b.text}}', model: 'gpt-x' })
    .node('out', 'output', { values: { text: '{{c.text}}' } })
    .chain('a', 'b', 'c', 'out')
    .build()
  if (limits) doc.metadata.limits = limits
  return doc
}

const perCall = { usage: { prompt: 90, completion: 10 } }
/** gpt-x costs $1 per million input and $10 per million output tokens: $0.00019 a call. */
const pricing: PricingPort = {
  priceFor: (_provider, model) => (model === 'gpt-x' ? { inputPerMTok: 1, outputPerMTok: 10 } : null),
}

async function run(
  doc: FlowDocument,
  options: { runLimits?: RunLimits; runLimitsOverride?: RunLimits } = {},
): Promise<{ events: RunEvent[]; provider: ScriptedProvider }> {
  const clock = new ManualClock()
  const provider = scriptedProvider(
    [
      { text: 'A', ...perCall },
      { text: 'B', ...perCall },
      { text: 'C', ...perCall },
    ],
    { clock },
  )
  const { ctx } = testContext({ clock, provider, pricing, ...options })
  return { events: await runWithClock(doc, ctx, clock), provider }
}

const guards = (events: RunEvent[]) =>
  events.flatMap((e) =>
    e.type === 'guard'
      ? [
          {
            node: e.nodeId,
            level: e.level,
            layer: e.layer,
            ...('scope' in e ? { scope: e.scope, unit: e.unit, phase: e.phase } : {}),
          },
        ]
      : [],
  )

function finish(events: RunEvent[]): Extract<RunEvent, { type: 'runFinish' }> {
  const last = events.at(-1)
  if (last?.type !== 'runFinish') throw new Error('the run did not finish')
  return last
}

describe('whole-run budget', () => {
  it('hints at 80 %, trips past the limit, stops the running node and skips the rest', async () => {
    const { events, provider } = await run(chain({ maxRunTokens: 250 }))
    expect(guards(events)).toEqual([
      { node: 'b', level: 'hint', layer: 'budget', scope: 'run', unit: 'tokens', phase: 'after-call' },
      { node: 'c', level: 'trip', layer: 'budget', scope: 'run', unit: 'tokens', phase: 'after-call' },
    ])
    expect(provider.requests).toHaveLength(3)
    const trip = events.find((e) => e.type === 'guard' && e.level === 'trip')
    expect(trip?.type === 'guard' && trip.message).toBe(
      '[Run Budget Exceeded] The run has used 300 tokens, over its budget of 250 tokens. Stopping the run.',
    )
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'nodeError', nodeId: 'c', code: 'RUN_BUDGET' }),
    )
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'nodeSkipped', nodeId: 'out', reason: 'budget' }),
    )
    expect(finish(events)).toMatchObject({ status: 'stopped', stopReason: 'budget', usage: { total: 300 } })
  })

  it('never makes a call whose prompt alone would exceed what is left', async () => {
    // After two calls 200 of 202 tokens are spent: the third prompt (a few tokens) would cross it.
    const { events, provider } = await run(chain({ maxRunTokens: 202 }))
    expect(provider.requests).toHaveLength(2)
    const trip = events.find((e) => e.type === 'guard' && e.level === 'trip')
    expect(trip).toMatchObject({ nodeId: 'c', scope: 'run', phase: 'before-call', budget: 202 })
    expect(trip?.type === 'guard' && trip.message).toMatch(
      /^\[Run Budget Exceeded\] The next model call \(about \d+ tokens\) would take the run to \d+ tokens, over its budget of 202 tokens\. Stopping the run\.$/,
    )
    expect(finish(events)).toMatchObject({ status: 'stopped', stopReason: 'budget' })
  })

  it('bounds the run in dollars from the price table, and every event tells the cost', async () => {
    // $0.00019 a call: the second brings $0.00038, past $0.0003.
    const { events, provider } = await run(chain(), { runLimits: { maxRunCostUsd: 0.0003 } })
    expect(provider.requests).toHaveLength(2)
    // The first call is 63 % of the limit (no hint yet); the second passes it.
    expect(guards(events)).toEqual([
      { node: 'b', level: 'trip', layer: 'budget', scope: 'run', unit: 'usd', phase: 'after-call' },
    ])
    const done = finish(events)
    expect(done.usage.costUsd).toBeCloseTo(0.00038, 10)
    expect(done.usage.unpricedCalls).toBe(0)
    const a = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'a')
    expect(a?.type === 'nodeFinish' && a.usage?.costUsd).toBeCloseTo(0.00019, 10)
  })

  it('runs to the end under its limits, with its cost', async () => {
    const { events } = await run(chain({ maxRunTokens: 10_000 }))
    expect(guards(events)).toEqual([])
    expect(finish(events)).toMatchObject({ status: 'success', usage: { total: 300 } })
    expect(finish(events).usage.costUsd).toBeCloseTo(0.00057, 10)
  })

  it("takes the flow's limits over the host's defaults, and the host's explicit ones over the flow's", async () => {
    expect(effectiveLimits({ maxRunTokens: 5, maxRunCostUsd: 1 }, { maxRunTokens: 7 }, undefined)).toEqual({
      maxRunTokens: 7,
      maxRunCostUsd: 1,
    })
    expect(effectiveLimits({ maxRunTokens: 5 }, { maxRunTokens: 7 }, { maxRunTokens: 9 })).toEqual({
      maxRunTokens: 9,
    })
    // The flow says 250 (trips at the third call); the host's explicit 10,000 wins.
    const { events } = await run(chain({ maxRunTokens: 250 }), {
      runLimitsOverride: { maxRunTokens: 10_000 },
    })
    expect(finish(events).status).toBe('success')
  })

  it('without reported usage: a free model costs $0, a paid one is unpriced; a token limit counts with the tokenizer', async () => {
    const unreported = async (model: string, limits?: RunLimits): Promise<RunEvent[]> => {
      const clock = new ManualClock()
      const provider = scriptedProvider([{ text: 'quiet', usage: null }], { clock })
      const prices: PricingPort = {
        priceFor: (_p, m) =>
          m === 'free-x' ? { inputPerMTok: 0, outputPerMTok: 0 } : pricing.priceFor(_p, m),
      }
      const doc = chain(limits)
      for (const node of doc.nodes)
        if (node.type === 'llm') (node.data.config as { model: string }).model = model
      const { ctx } = testContext({ clock, provider, pricing: prices })
      return runWithClock(doc, ctx, clock)
    }
    const free = await unreported('free-x')
    expect(finish(free).usage).toMatchObject({ costUsd: 0, unpricedCalls: 0 })
    const paid = await unreported('gpt-x')
    expect(finish(paid).usage).toMatchObject({ costUsd: null, unpricedCalls: 3 })
    expect(paid.filter((e) => e.type === 'modelCall' && e.estimatedUsage)).toHaveLength(0)
    const limited = await unreported('gpt-x', { maxRunTokens: 100_000 })
    const calls = limited.filter((e) => e.type === 'modelCall')
    expect(calls).toHaveLength(3)
    for (const call of calls)
      expect(call.type === 'modelCall' && call.estimatedUsage?.prompt).toBeGreaterThan(0)
    expect(finish(limited).usage).toMatchObject({ costUsd: null, unpricedCalls: 3 })
  })

  it('words dollars with cents, and more digits below a dollar', () => {
    expect(runBudgetMessage({ level: 'hint', unit: 'usd', total: 0.85, budget: 1 })).toBe(
      '[Run Budget Warning] The run has used $0.8500 of its budget of $1.00.',
    )
  })
})
