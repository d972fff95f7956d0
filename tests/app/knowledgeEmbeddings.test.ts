/**
 * A knowledge base made with a provider's embeddings model (issue 18, item 4): its chunks are
 * embedded by that provider when documents are dropped, and a knowledge search embeds the query
 * with the same model, against a real local OpenAI-compatible server (and its Ollama face).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKnowledgeService } from '../../src/app/knowledge/knowledgeService.ts'
import { createBrowserKnowledge } from '../../src/app/knowledge/browserKnowledge.ts'
import { createEmbedderFor } from '../../src/app/knowledge/embedders.ts'
import { createKnowledgeWorkerLoop } from '../../src/knowledge/workerLoop.ts'
import { createKnowledgeWorkerClient, type KnowledgeWorkerClient } from '../../src/knowledge/workerClient.ts'
import { demoVector } from '../../src/knowledge/demoVectors.ts'
import { loadKnowledgeChunks } from '../../src/storage/repositories/knowledge.ts'
import { defaultSettings, type AppSettings } from '../../src/settings/schema.ts'
import { FlowError } from '../../src/engine/index.ts'
import { freshDb } from '../storage/support.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'

function inThreadWorker(): KnowledgeWorkerClient {
  return createKnowledgeWorkerClient((events) => {
    const handle = createKnowledgeWorkerLoop((reply) =>
      queueMicrotask(() => events.message(structuredClone(reply))),
    )
    return { post: (message) => queueMicrotask(() => handle(structuredClone(message))), terminate() {} }
  })
}

const REFUNDS = 'Refunds are paid within 14 days of the request.'
const SHIPPING = 'Parcels leave Rotterdam every morning by train.'

let server: MockOpenAiServer
beforeAll(async () => {
  server = await startMockOpenAiServer({ apiKey: 'sk-kb' })
})
afterAll(async () => {
  await server.close()
})

function settingsWith(baseUrl: string): AppSettings {
  const settings = defaultSettings()
  settings.providers.push({
    id: 'local',
    label: 'Local server',
    kind: 'openai',
    baseUrl,
    model: 'mock-model',
    models: ['mock-model'],
    apiKey: 'sk-kb',
    stream: true,
    headers: [{ key: 'X-Team', value: 'docs' }],
  })
  return settings
}

async function setUp(settings: AppSettings) {
  const db = await freshDb()
  const worker = inThreadWorker()
  const embedderFor = createEmbedderFor(() => settings)
  let n = 0
  const service = createKnowledgeService({
    db: async () => db,
    worker: () => worker,
    pdfText: async () => '',
    now: () => 1000 + n,
    newId: () => `doc${(n += 1)}`,
    open: () => {},
    embedderFor,
    fetch: globalThis.fetch.bind(globalThis),
  })
  const search = createBrowserKnowledge(
    async () => db,
    () => worker,
    {
      embedderFor,
      fetch: globalThis.fetch.bind(globalThis),
    },
  )
  return { db, service, search }
}

describe('a knowledge base embedded by a provider', () => {
  it('embeds dropped chunks and the query with the base’s model on the provider’s /embeddings', async () => {
    server.requests.length = 0
    const { db, service, search } = await setUp(settingsWith(server.baseUrl))
    await service.createBase({
      id: 'kb_emb',
      name: 'Embedded',
      embedding: { kind: 'provider', providerId: 'local', model: 'text-embedding-3-small' },
    })
    const [listed] = await service.listBases()
    expect(listed).toMatchObject({
      vectors: true,
      embedding: { kind: 'provider', providerId: 'local', model: 'text-embedding-3-small' },
    })
    const outcomes = await service.addFiles('kb_emb', [
      new File([REFUNDS], 'refunds.md', { type: 'text/markdown' }),
      new File([SHIPPING], 'shipping.md', { type: 'text/markdown' }),
    ])
    expect(outcomes).toEqual([
      { name: 'refunds.md', ok: true, chunkCount: 1 },
      { name: 'shipping.md', ok: true, chunkCount: 1 },
    ])
    const indexing = server.requests.filter((r) => r.path === '/v1/embeddings')
    expect(indexing.map((r) => r.body)).toEqual([
      { model: 'text-embedding-3-small', input: [REFUNDS] },
      { model: 'text-embedding-3-small', input: [SHIPPING] },
    ])
    expect(indexing[0]!.headers.authorization).toBe('Bearer sk-kb')
    expect(indexing[0]!.headers['x-team']).toBe('docs')
    // The vectors kept are the server's (the mock answers with the demo's vector of each text).
    const stored = await loadKnowledgeChunks(db, 'kb_emb')
    expect(Array.from(stored.find((c) => c.source === 'refunds.md')!.vector!)).toEqual(
      Array.from(demoVector(REFUNDS)),
    )

    server.requests.length = 0
    const controller = new AbortController()
    const hits = await search.search({
      base: 'kb_emb',
      query: 'how many days until refunds are paid',
      topK: 1,
      minScore: 0,
      nodeId: 'kn',
      signal: controller.signal,
    })
    expect(hits.map((h) => h.source)).toEqual(['refunds.md'])
    expect(server.requests.filter((r) => r.path === '/v1/embeddings').map((r) => r.body)).toEqual([
      { model: 'text-embedding-3-small', input: ['how many days until refunds are paid'] },
    ])
  })

  it('embeds with Ollama’s own API for an Ollama provider, and the demo’s vectors for the demo', async () => {
    const settings = settingsWith('http://localhost:11434/v1')
    const embedderFor = createEmbedderFor(() => settings)
    expect(
      await embedderFor({ kind: 'provider', providerId: 'local', model: 'nomic-embed-text' }, 'kb'),
    ).toMatchObject({ kind: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'nomic-embed-text' })
    expect(await embedderFor({ kind: 'provider', providerId: 'demo', model: 'x' }, 'kb')).toEqual({
      kind: 'demo',
    })
    expect(await embedderFor({ kind: 'none' }, 'kb')).toBeUndefined()
  })

  it('asks for the passphrase first when keys are locked, and fails saying so when it is refused', async () => {
    const settings = settingsWith(server.baseUrl)
    let asked = 0
    const refused = createEmbedderFor(() => settings, {
      isLocked: () => true,
      requestUnlock: async () => {
        asked += 1
        return false
      },
    })
    await expect(refused({ kind: 'provider', providerId: 'local', model: 'm' }, 'kb')).rejects.toMatchObject({
      code: 'KEY_LOCKED',
    })
    expect(asked).toBe(1)
  })

  it('reports a refusal of the provider per file, stores nothing of it, and names a provider that is gone', async () => {
    server.requests.length = 0
    const settings = settingsWith(server.baseUrl)
    settings.providers[1]!.apiKey = 'wrong'
    const { db, service, search } = await setUp(settings)
    await service.createBase({
      id: 'kb_bad',
      name: 'Bad key',
      embedding: { kind: 'provider', providerId: 'local', model: 'text-embedding-3-small' },
    })
    const [outcome] = await service.addFiles('kb_bad', [new File([REFUNDS], 'refunds.md')])
    expect(outcome).toMatchObject({ name: 'refunds.md', ok: false, reasonKey: 'refused.embeddings' })
    expect(outcome!.ok ? '' : outcome!.detail).toContain('HTTP 401')
    expect(await loadKnowledgeChunks(db, 'kb_bad')).toEqual([])

    settings.providers.pop()
    const failure = await search
      .search({
        base: 'kb_bad',
        query: 'x',
        topK: 1,
        minScore: 0,
        nodeId: 'kn',
        signal: new AbortController().signal,
      })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(FlowError)
    expect((failure as FlowError).message).toContain('provider "local", which is not in Settings')
  })

  it('refuses a provider base without a model', async () => {
    const { service } = await setUp(settingsWith(server.baseUrl))
    await expect(
      service.createBase({
        id: 'kb_x',
        name: '',
        embedding: { kind: 'provider', providerId: 'local', model: ' ' },
      }),
    ).rejects.toThrow('embeddings model')
  })
})
