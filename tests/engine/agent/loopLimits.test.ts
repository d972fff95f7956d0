/** The agent loop's token budget, iteration cap and usage accounting. */
import { describe, expect, it } from 'vitest'
import { estimatePromptTokens } from '../../../src/engine/index.ts'
import { call, expectAllRequestsWellFormed, expectWellFormed, harness, tool } from './support/loopHarness.ts'

describe('agent loop: token budget', () => {
  it('stops after the call that reached the budget, with the exact console line and no finalize', async () => {
    const search = tool('search', () => 'results')
    const h = harness(
      [
        {
          text: 'Searching.',
          toolCalls: [call('search', { q: 'a' })],
          usage: { prompt: 400, completion: 200 },
        },
        { text: 'More.', toolCalls: [call('search', { q: 'b' })], usage: { prompt: 700, completion: 100 } },
        { text: 'never reached' },
      ],
      { tools: [search], protection: { maxTokenBudget: 1000 } },
    )
    const result = await h.run()
    expect(h.provider.requests).toHaveLength(2)
    expect(search.runs).toHaveLength(1)
    expect(result).toMatchObject({
      stopReason: 'budget',
      status: 'stopped',
      usage: { prompt: 1100, completion: 300, total: 1400, estimated: false },
      response: 'Searching.\n\nMore.',
    })
    expect(h.alerts).toEqual([
      {
        layer: 'budget',
        level: 'trip',
        total: 1400,
        budget: 1000,
        phase: 'after-call',
        message:
          '[Agent Token Budget Exceeded] Total 1400 tokens reached budget limit of 1000. Terminating loop.',
      },
    ])
    // The unrun call of the last turn still has its one result.
    expect(result.toolCalls.at(-1)?.observation).toBe('Observation: Skipped: the token budget is spent.')
    expectWellFormed(result.messages)
  })

  it('stops before a call whose prompt alone would cross what is left', async () => {
    const big = 'x'.repeat(4000) // about 1000 tokens with the harness estimator
    const h = harness(
      [
        { toolCalls: [call('fetch_page')], usage: { prompt: 100, completion: 50 } },
        { text: 'never reached' },
      ],
      { tools: [tool('fetch_page', () => big)], protection: { maxTokenBudget: 800 } },
    )
    const result = await h.run()
    expect(h.provider.requests).toHaveLength(1)
    expect(result.stopReason).toBe('budget')
    expect(result.usage.total).toBe(150)
    expect(h.alerts).toHaveLength(1)
    expect(h.alerts[0]).toMatchObject({
      layer: 'budget',
      level: 'trip',
      phase: 'before-call',
      total: 150,
      budget: 800,
    })
    expect(h.alerts[0]?.message).toMatch(
      /^\[Agent Token Budget Exceeded\] Total 150 tokens plus about \d+ for the next call would exceed budget limit of 800\. Terminating loop\.$/,
    )
  })

  it('predicts with the same estimate the provider would be charged for', async () => {
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'x'.repeat(400) }] }
    expect(await estimatePromptTokens(request, async (t) => Math.ceil(t.length / 4))).toBeGreaterThanOrEqual(
      100,
    )
  })

  it('finalizes after a deadlock only when the budget still affords it', async () => {
    const steps = (third: { prompt: number; completion: number }) => [
      { toolCalls: [call('q')], usage: { prompt: 10, completion: 10 } },
      { toolCalls: [call('q')], usage: { prompt: 10, completion: 10 } },
      { toolCalls: [call('q')], usage: third },
      { text: 'final', usage: { prompt: 10, completion: 10 } },
    ]
    const budget = { maxTokenBudget: 1000 }
    const roomy = harness(steps({ prompt: 10, completion: 10 }), {
      tools: [tool('q', () => '[]')],
      protection: budget,
    })
    expect((await roomy.run()).response).toBe('final')
    expect(roomy.provider.requests).toHaveLength(4)

    // 950 tokens spent after three calls: the finalize prompt alone would cross the 50 left.
    const tight = harness(steps({ prompt: 900, completion: 10 }), {
      tools: [tool('q', () => '[]')],
      protection: budget,
    })
    const result = await tight.run()
    expect(result.usage.total).toBe(950)
    expect(tight.provider.requests).toHaveLength(3)
    expect(result.stopReason).toBe('deadlock')
    expect(tight.alerts.map((a) => `${a.layer}:${a.phase ?? ''}`)).toEqual([
      'loop:',
      'loop:',
      'budget:before-call',
    ])
  })

  it('does not finalize after a budget stop: nothing is left to pay for it', async () => {
    const h = harness(
      [
        { text: 'partial', toolCalls: [call('q')], usage: { prompt: 600, completion: 600 } },
        { text: 'final' },
      ],
      { tools: [tool('q', () => 'x')], protection: { maxTokenBudget: 1000 } },
    )
    const result = await h.run()
    expect(h.provider.requests).toHaveLength(1)
    expect(result).toMatchObject({ stopReason: 'budget', response: 'partial' })
  })

  it('is unlimited with a budget of 0', async () => {
    const h = harness(
      [{ toolCalls: [call('a')], usage: { prompt: 9_000_000, completion: 9_000_000 } }, { text: 'done' }],
      { tools: [tool('a', () => 'ok')], protection: { maxTokenBudget: 0 } },
    )
    expect((await h.run()).stopReason).toBe('answer')
  })
})

describe('agent loop: iteration cap', () => {
  it('stops at maxIterations, says so, and runs one last call with tools disabled', async () => {
    let n = 0
    const t = tool('step', () => `page ${++n}`)
    const h = harness(
      [
        (request) =>
          request.toolChoice === 'none'
            ? { text: 'Summary of 3 pages.' }
            : { toolCalls: [call('step', { n: request.messages.length })] },
      ],
      { tools: [t], protection: { maxIterations: 3 } },
    )
    const result = await h.run()
    expect(t.runs).toHaveLength(3)
    expect(h.provider.requests).toHaveLength(4)
    const last = h.provider.requests[3]
    expect(last?.toolChoice).toBe('none')
    expect(last?.tools).toBeUndefined()
    expect(result).toMatchObject({
      stopReason: 'iterations',
      status: 'stopped',
      iterations: 3,
      response: 'Summary of 3 pages.',
    })
    expect(h.alerts).toEqual([
      {
        layer: 'iterations',
        level: 'trip',
        count: 3,
        message: '[Agent Max Iterations Reached] Synthesizing final answer...',
      },
    ])
    expectAllRequestsWellFormed(h.provider)
  })

  it('finalizes after the cap even when finalizeAfterStop is off', async () => {
    const h = harness(
      [
        (request) =>
          request.toolChoice === 'none'
            ? { text: 'wrap-up' }
            : { toolCalls: [call('a', { l: request.messages.length })] },
      ],
      { tools: [tool('a', () => 'x')], protection: { maxIterations: 1, finalizeAfterStop: false } },
    )
    expect((await h.run()).response).toBe('wrap-up')
  })
})

describe('agent loop: usage', () => {
  it('sums reported usage exactly and marks it as reported', async () => {
    const h = harness(
      [
        { toolCalls: [call('a')], usage: { prompt: 12, completion: 3 } },
        { text: 'ok', usage: { prompt: 20, completion: 5 } },
      ],
      { tools: [tool('a', () => 'x')] },
    )
    expect((await h.run()).usage).toEqual({ prompt: 32, completion: 8, total: 40, estimated: false })
  })

  it('estimates usage with the tokenizer when the provider reports none, and marks it estimated', async () => {
    const h = harness([{ toolCalls: [call('a')] }, { text: 'an answer of some length', usage: null }], {
      tools: [tool('a', () => 'x')],
    })
    const { usage } = await h.run()
    expect(usage.estimated).toBe(true)
    expect(usage.prompt).toBeGreaterThan(0)
    expect(usage.completion).toBeGreaterThan(0)
    expect(usage.total).toBe(usage.prompt + usage.completion)
  })

  it('marks the total estimated when only some calls were estimated', async () => {
    const h = harness([{ toolCalls: [call('a')], usage: { prompt: 10, completion: 1 } }, { text: 'ok' }], {
      tools: [tool('a', () => 'x')],
    })
    const { usage } = await h.run()
    expect(usage.estimated).toBe(true)
    expect(usage.prompt).toBeGreaterThan(10)
  })
})

describe('the message-order checker used above', () => {
  it('rejects a user message between a tool_calls message and its results', () => {
    expect(() =>
      expectWellFormed([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 't', arguments: '{}' }] },
        { role: 'user', content: 'hint' },
        { role: 'tool', toolCallId: 'c1', name: 't', content: 'x' },
      ]),
    ).toThrow()
  })

  it('rejects a missing result', () => {
    expect(() =>
      expectWellFormed([
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'c1', name: 't', arguments: '{}' },
            { id: 'c2', name: 't', arguments: '{}' },
          ],
        },
        { role: 'tool', toolCallId: 'c1', name: 't', content: 'x' },
      ]),
    ).toThrow()
  })
})
