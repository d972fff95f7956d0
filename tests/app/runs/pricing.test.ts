import { describe, expect, it } from 'vitest'
import { browserPricing, loadPriceTable, priceFromTable } from '../../../src/app/runs/pricing.ts'
import { RunResources, settingsRunLimits, type RunHost } from '../../../src/app/runs/RunResources.ts'
import { systemClock } from '../../../src/platform/systemClock.ts'
import {
  DEMO_PROVIDER,
  defaultSettings,
  type AppSettings,
  type PriceOverride,
  type ProviderSettings,
} from '../../../src/settings/schema.ts'
import { flow } from '../../support/flowBuilders.ts'
import { config } from '../../storage/support.ts'

function provider(over: Partial<ProviderSettings>): ProviderSettings {
  return {
    id: 'p',
    label: 'P',
    kind: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    models: [],
    apiKey: '',
    stream: true,
    headers: [],
    ...over,
  }
}

describe('browser pricing over the genai-prices table', () => {
  it('prices gpt-4o-mini on OpenAI from the table (0.15 / 0.6 USD per MTok, cached 0.075)', async () => {
    const table = await loadPriceTable()
    expect(priceFromTable(table, provider({}), 'gpt-4o-mini')).toEqual({
      inputPerMTok: 0.15,
      outputPerMTok: 0.6,
      cachedInputPerMTok: 0.075,
    })
  })

  it('prices Claude on an anthropic provider, the tiered price by its base', async () => {
    const table = await loadPriceTable()
    const anthropic = provider({ kind: 'anthropic', baseUrl: 'https://api.anthropic.com' })
    expect(priceFromTable(table, anthropic, 'claude-3-5-haiku-latest')).toEqual({
      inputPerMTok: 0.8,
      outputPerMTok: 4,
      cachedInputPerMTok: 0.08,
    })
    expect(priceFromTable(table, anthropic, 'claude-sonnet-4-5')).toEqual({
      inputPerMTok: 3,
      outputPerMTok: 15,
      cachedInputPerMTok: 0.3,
    })
  })

  it('finds another OpenAI-compatible provider by its API URL (DeepSeek), at the price of the hour', async () => {
    const table = await loadPriceTable()
    const deepseek = provider({ baseUrl: 'https://api.deepseek.com/v1' })
    const peak = new Date('2026-12-03T10:00:00Z')
    const offPeak = new Date('2026-12-03T19:00:00Z')
    expect(priceFromTable(table, deepseek, 'deepseek-chat', peak)).toMatchObject({
      inputPerMTok: 0.27,
      outputPerMTok: 1.1,
    })
    expect(priceFromTable(table, deepseek, 'deepseek-chat', offPeak)).toMatchObject({
      inputPerMTok: 0.135,
      outputPerMTok: 0.55,
    })
    // The port asks the table at its clock's time, so a run prices each call at its hour.
    let now = peak
    const port = browserPricing(
      table,
      () => [deepseek],
      () => [],
      () => now,
    )
    expect(port.priceFor(deepseek.id, 'deepseek-chat')?.inputPerMTok).toBe(0.27)
    now = offPeak
    expect(port.priceFor(deepseek.id, 'deepseek-chat')?.inputPerMTok).toBe(0.135)
  })

  it('never guesses: an unknown model or no model is null; a server it does not know prices by model name', async () => {
    const table = await loadPriceTable()
    expect(priceFromTable(table, provider({}), 'no-such-model-xyz')).toBeNull()
    expect(
      priceFromTable(table, provider({ baseUrl: 'https://llm.example.com/v1' }), 'no-such-model-xyz'),
    ).toBeNull()
    expect(
      priceFromTable(table, provider({ baseUrl: 'https://llm.example.com/v1' }), 'gpt-4o-mini'),
    ).toMatchObject({ inputPerMTok: 0.15, outputPerMTok: 0.6 })
    expect(priceFromTable(table, provider({}), '  ')).toBeNull()
  })

  it('prices the demo provider and a local Ollama at 0 USD; a loopback proxy by its model', async () => {
    const table = await loadPriceTable()
    expect(priceFromTable(table, DEMO_PROVIDER, 'demo')).toEqual({ inputPerMTok: 0, outputPerMTok: 0 })
    const ollama = provider({ baseUrl: 'http://localhost:11434/v1' })
    expect(priceFromTable(table, ollama, 'llama3.2')).toEqual({ inputPerMTok: 0, outputPerMTok: 0 })
    const proxy = provider({ baseUrl: 'http://127.0.0.1:4000/v1' })
    expect(priceFromTable(table, proxy, 'gpt-4o-mini')).toMatchObject({
      inputPerMTok: 0.15,
      outputPerMTok: 0.6,
    })
  })

  it('the port looks the provider up by settings id and falls back to its default model', async () => {
    const table = await loadPriceTable()
    const port = browserPricing(table, () => [DEMO_PROVIDER, provider({ id: 'openai' })])
    expect(port.priceFor('openai', '')).toMatchObject({ inputPerMTok: 0.15, outputPerMTok: 0.6 })
    expect(port.priceFor('demo', 'demo')).toEqual({ inputPerMTok: 0, outputPerMTok: 0 })
    expect(port.priceFor('missing', 'gpt-4o-mini')).toBeNull()
  })
})

describe('price overrides from settings win over the table', () => {
  const row = (over: Partial<PriceOverride>): PriceOverride => ({
    provider: '*',
    model: 'gpt-4o-mini',
    inputUsdPerMTok: 1,
    outputUsdPerMTok: 2,
    ...over,
  })

  it("the provider's own row first, then '*' with the model, else the table", async () => {
    const table = await loadPriceTable()
    const overrides = [
      row({ provider: '*', inputUsdPerMTok: 1, outputUsdPerMTok: 2 }),
      row({ provider: 'work', inputUsdPerMTok: 5, outputUsdPerMTok: 6, cachedInputUsdPerMTok: 0.5 }),
      row({ provider: '*', model: 'house-model', inputUsdPerMTok: 3, outputUsdPerMTok: 4 }),
    ]
    const providers = [provider({ id: 'openai' }), provider({ id: 'work' }), provider({ id: 'free' })]
    const port = browserPricing(
      table,
      () => providers,
      () => overrides,
    )
    expect(port.priceFor('work', 'gpt-4o-mini')).toEqual({
      inputPerMTok: 5,
      outputPerMTok: 6,
      cachedInputPerMTok: 0.5,
    })
    expect(port.priceFor('openai', 'gpt-4o-mini')).toEqual({ inputPerMTok: 1, outputPerMTok: 2 })
    // A model the table does not know gets the override's price; others still come from the table.
    expect(port.priceFor('free', 'house-model')).toEqual({ inputPerMTok: 3, outputPerMTok: 4 })
    expect(port.priceFor('openai', 'gpt-4o')).toEqual(priceFromTable(table, providers[0]!, 'gpt-4o'))
  })

  it("a node naming no model is priced as its provider's default model; edits show in the next call", async () => {
    const table = await loadPriceTable()
    let overrides: PriceOverride[] = []
    const port = browserPricing(
      table,
      () => [provider({ id: 'openai' })],
      () => overrides,
    )
    expect(port.priceFor('openai', '')).toMatchObject({ inputPerMTok: 0.15 })
    overrides = [row({ provider: 'openai', inputUsdPerMTok: 9, outputUsdPerMTok: 9 })]
    expect(port.priceFor('openai', '')).toEqual({ inputPerMTok: 9, outputPerMTok: 9 })
  })

  it('without the table only the overrides price anything', () => {
    const port = browserPricing(
      null,
      () => [provider({ id: 'openai' })],
      () => [row({})],
    )
    expect(port.priceFor('openai', 'gpt-4o-mini')).toEqual({ inputPerMTok: 1, outputPerMTok: 2 })
    expect(port.priceFor('openai', 'gpt-4o')).toBeNull()
  })
})

describe("the settings' default run limits", () => {
  const withLimits = (runLimits: AppSettings['runLimits']): AppSettings => ({
    ...defaultSettings(),
    runLimits,
  })

  it('passes only the limits that bound something', () => {
    expect(settingsRunLimits(withLimits({}))).toBeUndefined()
    expect(settingsRunLimits(withLimits({ maxRunTokens: 0, maxRunCostUsd: 0 }))).toBeUndefined()
    expect(settingsRunLimits(withLimits({ maxRunTokens: 500, maxRunCostUsd: 0 }))).toEqual({
      maxRunTokens: 500,
    })
    expect(settingsRunLimits(withLimits({ maxRunCostUsd: 0.25 }))).toEqual({ maxRunCostUsd: 0.25 })
  })
})

describe('RunResources: the run context gets the pricing port', () => {
  function resources(loadPriceTable: RunHost['loadPriceTable'], extra: Partial<AppSettings> = {}) {
    const loads: string[] = []
    const host: RunHost = {
      clock: systemClock,
      fetch: () => Promise.reject(new Error('no network in this test')),
      createCodeRunner: () => ({ run: async () => ({ result: null, logs: [] }) }),
      loadEstimator: async () => async (text) => text.length,
      loadPriceTable: loadPriceTable && (() => (loads.push('table'), loadPriceTable())),
    }
    const settings = { ...defaultSettings(), providers: [{ ...DEMO_PROVIDER }], ...extra }
    return { loads, run: new RunResources(host, () => settings) }
  }
  const llmFlow = flow().meta('f').node('llm_1', 'llm', config('llm')).build()
  const plainFlow = flow().meta('f').node('in_1', 'input', config('input')).build()

  it('loads the table for a flow that calls a model and prices the demo provider at 0', async () => {
    const { loads, run } = resources(loadPriceTable)
    const ctx = await run.context('run_1', new AbortController().signal, llmFlow)
    expect(loads).toEqual(['table'])
    expect(ctx.pricing?.priceFor('demo', 'demo')).toEqual({ inputPerMTok: 0, outputPerMTok: 0 })
  })

  it('loads nothing for a flow without model calls', async () => {
    const { loads, run } = resources(loadPriceTable)
    const ctx = await run.context('run_1', new AbortController().signal, plainFlow)
    expect(loads).toEqual([])
    expect(ctx.pricing).toBeUndefined()
  })

  it('runs unpriced when the table fails to load', async () => {
    const { loads, run } = resources(() => Promise.reject(new Error('chunk failed')))
    const ctx = await run.context('run_1', new AbortController().signal, llmFlow)
    expect(loads).toEqual(['table'])
    expect(ctx.pricing).toBeUndefined()
  })

  it("hands the settings' run limits to the run, and none when they are unset", async () => {
    const limited = resources(loadPriceTable, { runLimits: { maxRunTokens: 300, maxRunCostUsd: 0 } })
    const ctx = await limited.run.context('run_1', new AbortController().signal, plainFlow)
    expect(ctx.runLimits).toEqual({ maxRunTokens: 300 })
    const open = await resources(loadPriceTable).run.context('run_2', new AbortController().signal, plainFlow)
    expect(open.runLimits).toBeUndefined()
  })

  it('prices by the overrides when the table fails to load', async () => {
    const overrides: PriceOverride[] = [
      { provider: 'demo', model: 'demo', inputUsdPerMTok: 1, outputUsdPerMTok: 1 },
    ]
    const { run } = resources(() => Promise.reject(new Error('chunk failed')), { priceOverrides: overrides })
    const ctx = await run.context('run_1', new AbortController().signal, llmFlow)
    expect(ctx.pricing?.priceFor('demo', 'demo')).toEqual({ inputPerMTok: 1, outputPerMTok: 1 })
  })
})
