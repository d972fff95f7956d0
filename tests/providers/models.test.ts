import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listModels, testConnection } from '../../src/providers/models.ts'
import { DEMO_PROVIDER } from '../../src/settings/schema.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { startMockAnthropicServer, type MockAnthropicServer } from '../support/mockAnthropicServer.ts'
import { flowError, settings } from './helpers.ts'

let openai: MockOpenAiServer
let anthropic: MockAnthropicServer
const signal = () => new AbortController().signal

beforeAll(async () => {
  openai = await startMockOpenAiServer({ apiKey: 'sk-good', models: ['zeta', 'alpha', 'mid'] })
  anthropic = await startMockAnthropicServer({ apiKey: 'ant' })
})
afterAll(async () => {
  await openai.close()
  await anthropic.close()
})

describe('listModels', () => {
  it('lists an OpenAI-compatible server’s models, sorted, sending the key', async () => {
    const models = await listModels(settings({ baseUrl: openai.baseUrl, apiKey: 'sk-good' }), fetch, signal())
    expect(models).toEqual(['alpha', 'mid', 'zeta'])
    expect(openai.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' })
  })

  it('lists Anthropic models with the Anthropic headers', async () => {
    const s = settings({ kind: 'anthropic', baseUrl: anthropic.url, apiKey: 'ant' })
    expect(await listModels(s, fetch, signal())).toEqual(['claude-mock-1', 'claude-mock-2'])
    expect(anthropic.requests.at(-1)?.headers['anthropic-version']).toBeDefined()
    expect(anthropic.requests.at(-1)?.query).toMatch(/^limit=\d+$/)
  })

  it('offers "demo" for the demo provider without any request', async () => {
    const failing = async () => {
      throw new Error('no network expected')
    }
    expect(await listModels({ ...DEMO_PROVIDER }, failing, signal())).toEqual(['demo'])
  })

  it('maps a refused key to PROVIDER_AUTH', async () => {
    const error = await flowError(
      listModels(settings({ baseUrl: openai.baseUrl, apiKey: 'bad' }), fetch, signal()),
    )
    expect(error.code).toBe('PROVIDER_AUTH')
  })

  it('explains a missing model list as a base URL problem', async () => {
    const error = await flowError(
      listModels(settings({ baseUrl: `${openai.url}/wrong`, apiKey: 'sk-good' }), fetch, signal()),
    )
    expect(error.code).toBe('PROVIDER_BAD_REQUEST')
    expect(error.message).toMatch(/Check the base URL/)
  })

  it('stops with CANCELLED when aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await flowError(listModels(settings({ baseUrl: openai.baseUrl }), fetch, controller.signal))
    expect(error.code).toBe('CANCELLED')
  })
})

describe('testConnection', () => {
  it('reports success with the model count', async () => {
    const result = await testConnection(
      settings({ baseUrl: openai.baseUrl, apiKey: 'sk-good', label: 'Local' }),
      fetch,
      signal(),
    )
    expect(result).toMatchObject({ ok: true, models: ['alpha', 'mid', 'zeta'] })
    expect(result.message).toBe('Connected to Local: 3 models available.')
  })

  it('reports a failure with its code and an actionable message', async () => {
    const result = await testConnection(settings({ baseUrl: openai.baseUrl, apiKey: 'bad' }), fetch, signal())
    expect(result.ok).toBe(false)
    expect(result.code).toBe('PROVIDER_AUTH')
    expect(result.message).toContain('check it in Settings')
  })

  it('reports an unreachable server as a network problem', async () => {
    const gone = await startMockOpenAiServer()
    const baseUrl = gone.baseUrl
    await gone.close()
    const result = await testConnection(settings({ baseUrl }), fetch, signal())
    expect(result).toMatchObject({ ok: false, code: 'PROVIDER_NETWORK' })
  })

  it('says the demo provider needs no connection', async () => {
    const result = await testConnection({ ...DEMO_PROVIDER }, fetch, signal())
    expect(result).toMatchObject({ ok: true, models: ['demo'] })
    expect(result.message).toMatch(/offline demo provider/)
  })
})
