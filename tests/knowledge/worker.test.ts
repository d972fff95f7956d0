import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKnowledgeWorkerLoop } from '../../src/knowledge/workerLoop.ts'
import { createKnowledgeWorkerClient, type KnowledgeWorkerFactory } from '../../src/knowledge/workerClient.ts'
import { isKnowledgeWorkerReply, isKnowledgeWorkerRequest } from '../../src/knowledge/workerProtocol.ts'
import { embedTexts } from '../../src/knowledge/embeddings.ts'
import { demoVector } from '../../src/knowledge/demoVectors.ts'
import { FlowError } from '../../src/engine/index.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'

/** A worker in this thread: messages cross a structured clone each way, as they would between threads. */
function inThreadWorker(log: unknown[] = []): KnowledgeWorkerFactory {
  return (events) => {
    const handle = createKnowledgeWorkerLoop((reply) =>
      queueMicrotask(() => events.message(structuredClone(reply))),
    )
    return {
      post(message) {
        log.push(message)
        queueMicrotask(() => handle(structuredClone(message)))
      },
      terminate() {},
    }
  }
}

const DOCS = [
  { id: 'a:0', text: 'Refunds are paid within 14 days.', source: 'refunds.md' },
  { id: 'b:0', text: 'Parcels ship from Rotterdam.', source: 'shipping.md' },
]

describe('the knowledge worker protocol', () => {
  it('refuses malformed requests and replies, and accepts well-formed ones', () => {
    expect(
      isKnowledgeWorkerRequest({ type: 'search', id: 1, baseId: 'kb', query: 'x', topK: 2, minScore: 0 }),
    ).toBe(true)
    expect(
      isKnowledgeWorkerRequest({ type: 'search', id: 1, baseId: 'kb', query: 'x', topK: '2', minScore: 0 }),
    ).toBe(false)
    expect(
      isKnowledgeWorkerRequest({
        type: 'load',
        id: 1,
        baseId: 'kb',
        stamp: 1,
        chunks: [{ id: 'x', text: 'y' }],
      }),
    ).toBe(false)
    expect(isKnowledgeWorkerRequest({ type: 'explode', id: 1 })).toBe(false)
    expect(
      isKnowledgeWorkerReply({
        type: 'results',
        id: 3,
        hits: [{ id: 'x', text: 't', source: 's', score: 0.5 }],
      }),
    ).toBe(true)
    expect(
      isKnowledgeWorkerReply({ type: 'results', id: 3, hits: [{ id: 'x', text: 't', score: 0.5 }] }),
    ).toBe(false)
  })

  it('answers a request it cannot read with failed, by id', () => {
    const replies: unknown[] = []
    const handle = createKnowledgeWorkerLoop((reply) => replies.push(reply))
    handle({ type: 'search', id: 7, baseId: 5 })
    handle('garbage')
    expect(replies).toEqual([
      { type: 'failed', id: 7, message: 'The knowledge worker got a request it cannot read.' },
    ])
  })

  it('chunks with demo vectors, loads a base once per stamp and searches it', async () => {
    const log: Array<{ type?: string }> = []
    const client = createKnowledgeWorkerClient(inThreadWorker(log))
    const chunks = await client.chunk('One. Two. Three.', {
      sizeChars: 200,
      overlapChars: 0,
      demoVectors: true,
    })
    expect(chunks).toHaveLength(1)
    expect(Array.from(chunks[0]!.vector!)).toEqual(Array.from(demoVector('One. Two. Three.')))

    let reads = 0
    const base = { id: 'kb', stamp: 1, chunks: async () => (reads++, DOCS) }
    const hits = await client.search(base, { query: 'refund paid', topK: 2, minScore: 0 })
    expect(hits.map((h) => h.source)).toEqual(['refunds.md'])
    await client.search(base, { query: 'parcels', topK: 2, minScore: 0, queryVector: 'demo' })
    expect(reads).toBe(1)
    // A changed base (new stamp) is read and loaded again.
    await client.search({ ...base, stamp: 2 }, { query: 'parcels', topK: 2, minScore: 0 })
    expect(reads).toBe(2)
    expect(log.filter((m) => m.type === 'load')).toHaveLength(2)
  })

  it('fails the waiting requests when the worker crashes, and starts a new worker next time', async () => {
    let spawned = 0
    let crash: ((reason: string) => void) | undefined
    const client = createKnowledgeWorkerClient((events) => {
      spawned += 1
      crash = events.failure
      return spawned === 1 ? { post() {}, terminate() {} } : inThreadWorker()(events)
    })
    const pending = client.chunk('text', { sizeChars: 100, overlapChars: 0, demoVectors: false })
    crash?.('out of memory')
    await expect(pending).rejects.toThrow('The knowledge worker stopped: out of memory')
    await expect(
      client.chunk('text', { sizeChars: 100, overlapChars: 0, demoVectors: false }),
    ).resolves.toEqual([{ text: 'text' }])
    expect(spawned).toBe(2)
  })
})

describe('embeddings through a provider', () => {
  let server: MockOpenAiServer
  beforeAll(async () => {
    server = await startMockOpenAiServer({ apiKey: 'sk-test' })
  })
  afterAll(() => server.close())

  it('posts the texts to an OpenAI-compatible /embeddings with the key, and keeps one vector per text in order', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `text number ${i}`)
    const vectors = await embedTexts(
      { kind: 'openai', baseUrl: server.baseUrl, model: 'text-embed', apiKey: 'sk-test' },
      texts,
      fetch,
    )
    expect(vectors).toHaveLength(70)
    expect(Array.from(vectors[69]!)).toEqual(Array.from(demoVector('text number 69')))
    const calls = server.requests.filter((r) => r.path === '/v1/embeddings')
    // Two batches (64 + 6), each the documented body shape.
    expect(calls).toHaveLength(2)
    expect(calls[0]!.body).toEqual({ model: 'text-embed', input: texts.slice(0, 64) })
    expect(calls[0]!.headers.authorization).toBe('Bearer sk-test')
  })

  it("posts to Ollama's /api/embed at the server's root, even when the settings URL ends in /v1", async () => {
    const open = await startMockOpenAiServer()
    try {
      const vectors = await embedTexts(
        { kind: 'ollama', baseUrl: `${open.url}/v1`, model: 'nomic-embed-text' },
        ['hi'],
        fetch,
      )
      expect(vectors).toHaveLength(1)
      expect(open.requests.map((r) => [r.path, r.body])).toEqual([
        ['/api/embed', { model: 'nomic-embed-text', input: ['hi'] }],
      ])
    } finally {
      await open.close()
    }
  })

  it('fails with PROVIDER_AUTH naming the model when the key is refused', async () => {
    const failure = await embedTexts(
      { kind: 'openai', baseUrl: server.baseUrl, model: 'text-embed', apiKey: 'wrong' },
      ['x'],
      fetch,
    ).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(FlowError)
    expect((failure as FlowError).code).toBe('PROVIDER_AUTH')
    expect((failure as FlowError).message).toContain('text-embed')
  })
})
