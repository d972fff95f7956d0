import { describe, expect, it } from 'vitest'
import { CostLedger } from '../../../src/engine/cost/ledger.ts'
import { priceCall, withOverrides, type PricingPort } from '../../../src/engine/cost/pricing.ts'

const table: PricingPort = {
  priceFor: (provider, model) =>
    provider === 'openai' && model === 'gpt-x'
      ? { inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.5, reasoningPerMTok: 20 }
      : null,
}

describe('cost ledger', () => {
  it('prices cached input and reasoning tokens at their own rates', () => {
    const price = table.priceFor('openai', 'gpt-x')
    if (!price) throw new Error('no price')
    // 600 fresh input * 2 + 400 cached * 0.5 + 100 plain output * 10 + 100 reasoning * 20, per MTok
    expect(
      priceCall(price, { prompt: 1000, completion: 200, cachedPrompt: 400, reasoning: 100 }),
    ).toBeCloseTo((1200 + 200 + 1000 + 2000) / 1e6, 12)
  })

  it('counts unknown models as unpriced, never guessing a cost', () => {
    const ledger = new CostLedger(table)
    expect(ledger.charge('local', 'mystery', { prompt: 10, completion: 5 }).costUsd).toBeNull()
    expect(ledger.snapshot()).toEqual({ calls: 1, tokens: 15, costUsd: null, unpricedCalls: 1 })
    ledger.charge('openai', 'gpt-x', { prompt: 1_000_000, completion: 0 })
    expect(ledger.snapshot()).toEqual({ calls: 2, tokens: 1_000_015, costUsd: 2, unpricedCalls: 1 })
  })

  it('lets an override win over the table', () => {
    const pricing = withOverrides(table, {
      'openai/gpt-x': { inputPerMTok: 1, outputPerMTok: 1 },
      'mock/unknown': { inputPerMTok: 3, outputPerMTok: 3 },
    })
    const ledger = new CostLedger(pricing)
    expect(ledger.charge('openai', 'gpt-x', { prompt: 1_000_000, completion: 0 }).costUsd).toBe(1)
    expect(ledger.charge('mock', 'unknown', { prompt: 0, completion: 1_000_000 }).costUsd).toBe(3)
  })

  it('refuses a predicted call over the limit, hints once at 80 % and trips past the limit', () => {
    const ledger = new CostLedger(table, { maxRunTokens: 1000 })
    expect(ledger.predict('openai', 'gpt-x', { prompt: 900, completion: 200 })).toMatchObject({
      level: 'trip',
      unit: 'tokens',
      total: 1100,
    })
    expect(ledger.charge('openai', 'gpt-x', { prompt: 700, completion: 100 }).crossing).toMatchObject({
      level: 'hint',
    })
    expect(ledger.charge('openai', 'gpt-x', { prompt: 10, completion: 10 }).crossing).toBeUndefined()
    expect(ledger.charge('openai', 'gpt-x', { prompt: 300, completion: 0 }).crossing).toMatchObject({
      level: 'trip',
    })
    expect(ledger.tripped).toBe(true)
  })

  it('trips on dollars', () => {
    const ledger = new CostLedger(table, { maxRunCostUsd: 0.001 })
    expect(ledger.predict('openai', 'gpt-x', { prompt: 0, completion: 200 })).toMatchObject({
      unit: 'usd',
      level: 'trip',
    })
    expect(ledger.predict('local', 'mystery', { prompt: 0, completion: 200 })).toBeNull()
  })

  it('prices a call by the model asked for when it has a price, else by the one the reply names', () => {
    const ledger = new CostLedger(table)
    // A price (or an override) for what the flow asks for wins over a dated reply name.
    expect(ledger.pricedModel('openai', 'gpt-x', 'gpt-x-2026-01-01')).toBe('gpt-x')
    // A proxy's alias the table does not know, answered by a model it does.
    expect(ledger.pricedModel('openai', 'my-alias', 'gpt-x')).toBe('gpt-x')
    expect(ledger.pricedModel('openai', 'my-alias', undefined)).toBe('my-alias')
  })
})
