/** Whole-run cost from a real run's events: per node (loops include their bodies), per run, unpriced calls. */
import { describe, expect, it } from 'vitest'
import type { FlowDocument, RunEvent } from '../../../src/engine/run.ts'
import type { PricingPort } from '../../../src/engine/cost/pricing.ts'
import { fakeCodeRunner } from '../../support/fakeCodeRunner.ts'
import { flow, testContext } from '../../support/flowBuilders.ts'
import { ManualClock } from '../../support/manualClock.ts'
import { scriptedProvider } from '../../support/scriptedProvider.ts'
import { runWithClock } from '../../nodes/runNodes.ts'

function costFlow(): FlowDocument {
  const doc = flow()
    .node('items', 'template', { template: '["a","b"]' })
    .node('each', 'loop', { mode: 'forEach', items: '{{items.text}}' })
    .node('ask', 'llm', { prompt: 'Say {{each.item}}', model: 'gpt-test' })
    .node('agent', 'agent', {
      prompt: 'How many orders are pending?',
      model: 'gpt-agent',
      tools: [
        {
          name: 'query_db',
          description: 'Query the orders table',
          parameters: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
          kind: 'code',
          code: 'return []',
        },
      ],
    })
    .chain('items', 'each', 'agent')
    .build()
  for (const node of doc.nodes) if (node.id === 'ask') node.parentId = 'each'
  return doc
}

/** USD per million tokens by model; everything else has no known price. */
function pricing(prices: Record<string, [number, number]>): PricingPort {
  return {
    priceFor: (_provider, model) => {
      const price = prices[model]
      return price ? { inputPerMTok: price[0], outputPerMTok: price[1] } : null
    },
  }
}

async function run(port: PricingPort | undefined): Promise<RunEvent[]> {
  const clock = new ManualClock()
  const provider = scriptedProvider(
    [
      { text: 'A!', usage: { prompt: 7, completion: 2 }, model: 'gpt-test' },
      { text: 'B!', usage: { prompt: 7, completion: 2 }, model: 'gpt-test' },
      {
        toolCalls: [{ name: 'query_db', arguments: '{"status":"pending"}' }],
        usage: { prompt: 50, completion: 10 },
      },
      { text: 'There are none.', usage: { prompt: 80, completion: 5 } },
    ],
    { clock },
  )
  const { ctx } = testContext({
    clock,
    provider,
    codeRunner: fakeCodeRunner(() => ({ rows: [] })),
    ...(port ? { pricing: port } : {}),
  })
  return runWithClock(costFlow(), ctx, clock)
}

function finishCost(events: RunEvent[], nodeId: string): number | null | undefined {
  const finishes = events.filter(
    (e): e is Extract<RunEvent, { type: 'nodeFinish' }> =>
      e.type === 'nodeFinish' && e.nodeId === nodeId && (e.nesting ?? []).length === 0,
  )
  return finishes.at(-1)?.usage?.costUsd
}

function runUsage(events: RunEvent[]): Extract<RunEvent, { type: 'runFinish' }>['usage'] {
  const finish = events.find((e) => e.type === 'runFinish')
  if (!finish || finish.type !== 'runFinish') throw new Error('no runFinish')
  return finish.usage
}

describe('whole-run cost', () => {
  it('prices every call: the run, the Agent, and a loop with the calls of its body', async () => {
    const events = await run(pricing({ 'gpt-test': [1, 2], 'gpt-agent': [10, 20] }))
    // ask: 2 x (7 x 1 + 2 x 2) = 22; agent: (50 x 10 + 10 x 20) + (80 x 10 + 5 x 20) = 1,600 (micro-USD)
    expect(finishCost(events, 'agent')).toBeCloseTo(1600e-6, 12)
    expect(finishCost(events, 'each')).toBeCloseTo(22e-6, 12)
    const usage = runUsage(events)
    expect(usage.costUsd).toBeCloseTo(1622e-6, 12)
    expect(usage.unpricedCalls).toBe(0)
  })

  it('never guesses: calls of a model without a price are counted as unpriced', async () => {
    const events = await run(pricing({ 'gpt-agent': [10, 20] }))
    expect(finishCost(events, 'each')).toBeNull()
    const usage = runUsage(events)
    expect(usage.costUsd).toBeCloseTo(1600e-6, 12)
    expect(usage.unpricedCalls).toBe(2)
  })

  it('with no pricing port every call is unpriced and the cost is null', async () => {
    const usage = runUsage(await run(undefined))
    expect(usage.costUsd).toBeNull()
    expect(usage.unpricedCalls).toBe(4)
  })

  it('counts the calls of a node that failed in the run total', async () => {
    const clock = new ManualClock()
    const bad = { text: 'not json', usage: { prompt: 30, completion: 4 } }
    const provider = scriptedProvider([bad, bad], { clock })
    const doc = flow()
      .node('ask', 'llm', {
        prompt: 'Classify',
        output: { schema: { type: 'object', required: ['intent'] }, repairAttempts: 1 },
      })
      .build()
    const { ctx } = testContext({ clock, provider })
    const events = await runWithClock(doc, ctx, clock)
    expect(events.some((e) => e.type === 'nodeError' && e.nodeId === 'ask')).toBe(true)
    expect(runUsage(events)).toMatchObject({ prompt: 60, completion: 8, total: 68 })
  })
})
