import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createProvider,
  createProviderResolver,
  type ProvidersSnapshot,
} from '../../src/providers/resolver.ts'
import { parseDemoScript } from '../../src/providers/demoScript.ts'
import { DEMO_PROVIDER } from '../../src/settings/schema.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { collect, flowError, realClock, recordingClock, settings, userRequest } from './helpers.ts'

let mock: MockOpenAiServer
beforeAll(async () => {
  mock = await startMockOpenAiServer()
})
afterAll(() => mock.close())
beforeEach(() => {
  mock.requests.length = 0
  mock.setScript([])
})

const twoReplies = {
  format: 'wardflow.demo-script',
  version: 1,
  replies: [{ text: 'first' }, { text: 'second' }],
  then: 'stop',
}

function snapshot(): ProvidersSnapshot {
  return {
    defaultProviderId: 'demo',
    providers: [
      { ...DEMO_PROVIDER },
      settings({ id: 'local', label: 'Local', baseUrl: mock.baseUrl, model: 'mock-model-large' }),
    ],
  }
}

describe('createProviderResolver', () => {
  it('names an unknown provider id in PROVIDER_MISSING', async () => {
    const resolver = createProviderResolver({ getSettings: snapshot(), fetch, clock: realClock })
    const error = await flowError(resolver.resolve({ providerId: 'openai-prod', nodeId: 'llm_1' }))
    expect(error.code).toBe('PROVIDER_MISSING')
    expect(error.message).toContain('"openai-prod"')
    expect(error.message).toContain('demo, local')
    expect(error.nodeId).toBe('llm_1')
  })

  it('uses the default provider when the node names none', async () => {
    const resolver = createProviderResolver({ getSettings: snapshot(), fetch, clock: recordingClock() })
    const provider = await resolver.resolve({ nodeId: 'n' })
    expect(provider.id).toBe('demo')
    expect((await collect(provider, userRequest('hello'))).result.text).toContain('offline demo provider')
  })

  it("plays the node's demo script with a fresh provider per resolve", async () => {
    const resolver = createProviderResolver({ getSettings: snapshot(), fetch, clock: recordingClock() })
    const a = await resolver.resolve({ providerId: 'demo', nodeId: 'a', demoScript: twoReplies })
    expect((await collect(a, userRequest('q'))).result.text).toBe('first')
    expect((await collect(a, userRequest('q'))).result.text).toBe('second')
    const b = await resolver.resolve({ providerId: 'demo', nodeId: 'b', demoScript: twoReplies })
    expect((await collect(b, userRequest('q'))).result.text).toBe('first')
  })

  it('accepts a demo script given as JSON text', async () => {
    const resolver = createProviderResolver({ getSettings: snapshot(), fetch, clock: recordingClock() })
    const provider = await resolver.resolve({ nodeId: 'a', demoScript: JSON.stringify(twoReplies) })
    expect((await collect(provider, userRequest('q'))).result.text).toBe('first')
  })

  it('rejects a bad inline script with INVALID_CONFIG naming the node and the JSON path', async () => {
    const resolver = createProviderResolver({ getSettings: snapshot(), fetch, clock: recordingClock() })
    const bad = { ...twoReplies, replies: [{ text: 1 }] }
    const error = await flowError(resolver.resolve({ nodeId: 'agent_1', demoScript: bad }))
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.nodeId).toBe('agent_1')
    expect(error.message).toContain('replies[0].text')
    const notJson = await flowError(resolver.resolve({ nodeId: 'agent_1', demoScript: '{nope' }))
    expect(notJson.message).toMatch(/not JSON/)
  })

  it("calls an openai provider over HTTP, falling back to the provider's model", async () => {
    const resolver = createProviderResolver({ getSettings: snapshot(), fetch, clock: realClock })
    const provider = await resolver.resolve({ providerId: 'local', nodeId: 'n' })
    const { result } = await collect(provider, userRequest('ping'))
    expect(result.text).toBe('Echo: ping')
    expect((mock.requests.at(-1)?.body as { model: string }).model).toBe('mock-model-large')
  })

  it('reads settings again at every resolve', async () => {
    let current = snapshot()
    const resolver = createProviderResolver({ getSettings: () => current, fetch, clock: realClock })
    expect((await resolver.resolve({ nodeId: 'n' })).id).toBe('demo')
    current = { ...current, defaultProviderId: 'local' }
    expect((await resolver.resolve({ nodeId: 'n' })).id).toBe('local')
  })

  it('plays the --script override for every node, whatever provider it names', async () => {
    const resolver = createProviderResolver({
      getSettings: snapshot(),
      fetch,
      clock: recordingClock(),
      override: { kind: 'script', script: parseDemoScript(twoReplies) },
    })
    const provider = await resolver.resolve({ providerId: 'does-not-exist', nodeId: 'n' })
    expect((await collect(provider, userRequest('q'))).result.text).toBe('first')
  })

  it('sends every node to the --base-url server, with --model winning over the node model', async () => {
    const resolver = createProviderResolver({
      getSettings: { providers: [], defaultProviderId: 'none' },
      fetch,
      clock: realClock,
      override: { kind: 'openai', baseUrl: mock.baseUrl, model: 'mock-model', apiKey: 'k', stream: false },
    })
    const provider = await resolver.resolve({ providerId: 'openai', nodeId: 'n' })
    await collect(provider, userRequest('q', { model: 'gpt-4o' }))
    const request = mock.requests.at(-1)
    expect(request?.body).toMatchObject({ model: 'mock-model', stream: false })
    expect(request?.headers.authorization).toBe('Bearer k')
  })

  it('keeps native structured output when --model forces the model (the schema stays in the request)', async () => {
    const resolver = createProviderResolver({
      getSettings: { providers: [], defaultProviderId: 'none' },
      fetch,
      clock: realClock,
      override: { kind: 'openai', baseUrl: mock.baseUrl, model: 'mock-model', apiKey: 'k', stream: false },
    })
    const provider = await resolver.resolve({ providerId: 'openai', nodeId: 'n' })
    expect(provider.structuredOutput).toBe('native')
  })

  it('asks unlockKey for the key of a locked provider and uses it', async () => {
    const asked: string[] = []
    const resolver = createProviderResolver({
      getSettings: snapshot(),
      fetch,
      clock: realClock,
      unlockKey: async (id) => {
        asked.push(id)
        return 'sk-unlocked'
      },
    })
    await collect(await resolver.resolve({ providerId: 'local', nodeId: 'n' }), userRequest('q'))
    expect(asked).toEqual(['local'])
    expect(mock.requests.at(-1)?.headers.authorization).toBe('Bearer sk-unlocked')
    await resolver.resolve({ providerId: 'demo', nodeId: 'n' })
    expect(asked).toEqual(['local'])
  })

  it("keeps the settings entry's key when unlockKey has none stored", async () => {
    const current = snapshot()
    current.providers = current.providers.map((p) => (p.id === 'local' ? { ...p, apiKey: 'sk-typed' } : p))
    const resolver = createProviderResolver({
      getSettings: current,
      fetch,
      clock: realClock,
      unlockKey: async () => '',
    })
    await collect(await resolver.resolve({ providerId: 'local', nodeId: 'n' }), userRequest('q'))
    expect(mock.requests.at(-1)?.headers.authorization).toBe('Bearer sk-typed')
  })

  it('reports KEY_LOCKED when the key cannot be unlocked', async () => {
    const resolver = createProviderResolver({
      getSettings: snapshot(),
      fetch,
      clock: realClock,
      unlockKey: async () => {
        throw new Error('no passphrase')
      },
    })
    const error = await flowError(resolver.resolve({ providerId: 'local', nodeId: 'n' }))
    expect(error.code).toBe('KEY_LOCKED')
    expect(error.message).toContain('passphrase')
  })
})

describe('createProvider', () => {
  it('builds the adapter matching the kind', async () => {
    const deps = { fetch, clock: recordingClock() }
    expect(createProvider({ ...DEMO_PROVIDER }, deps).id).toBe('demo')
    expect(createProvider(settings({ id: 'o', kind: 'openai' }), deps).id).toBe('o')
    expect(createProvider(settings({ id: 'a', kind: 'anthropic' }), deps).id).toBe('a')
  })
})
