import { describe, expect, it } from 'vitest'
import { chunkText } from '../../src/knowledge/chunk.ts'
import { createKeywordIndex } from '../../src/knowledge/keyword.ts'
import { fuseRanks } from '../../src/knowledge/fuse.ts'
import { createBaseIndex, type StoredChunk } from '../../src/knowledge/search.ts'
import { cosine, createVectorIndex } from '../../src/knowledge/vector.ts'
import { demoVector } from '../../src/knowledge/demoVectors.ts'
import { tokenize } from '../../src/knowledge/tokenize.ts'

/** A fixed corpus: each entry's topic is plain from its words, so the expected winners are too. */
const CORPUS: ReadonlyArray<[string, string]> = [
  ['refunds.md', 'Refunds are paid within 14 days. To ask for a refund, send the order number to billing.'],
  ['shipping.md', 'Parcels ship from Rotterdam. Shipping to Europe takes three days, to Asia ten days.'],
  ['passwords.md', 'To reset a password, open Settings, choose Security and press Reset password.'],
  ['kahn.md', 'Kahn topological sort removes nodes with no incoming edges; a cycle leaves nodes behind.'],
  ['canvas.md', 'The canvas draws only the nodes in view, so a flow of 5,000 nodes stays fast to pan.'],
  [
    'refund-policy.md',
    'A refund is refused for digital goods once downloaded. Refund questions go to billing.',
  ],
  ['zh.md', '退款会在十四天内支付。请把订单号发给账务部门。'],
]

function corpusChunks(withVectors: boolean): StoredChunk[] {
  return CORPUS.map(([source, text], i) => ({
    id: `c${i}`,
    text,
    source,
    ...(withVectors ? { vector: demoVector(text) } : {}),
  }))
}

describe('chunking', () => {
  it('cuts at sentence ends with the given overlap and covers the whole text', () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says something short.`).join(' ')
    const chunks = chunkText(text, { sizeChars: 200, overlapChars: 50 })
    expect(chunks.length).toBeGreaterThan(5)
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(200)
      expect(text.slice(chunk.start, chunk.end)).toBe(chunk.text)
    }
    // Every chunk but the last ends a sentence.
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text.endsWith('.')).toBe(true)
    // Consecutive chunks overlap, and together they reach the end.
    for (let i = 1; i < chunks.length; i += 1) {
      expect(chunks[i]!.start).toBeLessThan(chunks[i - 1]!.end)
      expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start)
    }
    expect(chunks.at(-1)!.end).toBe(text.length)
  })

  it('cuts text without any boundary at the size, and never loops on an overlap as long as a chunk', () => {
    const chunks = chunkText('x'.repeat(1000), { sizeChars: 100, overlapChars: 500 })
    expect(chunks.every((c) => c.text.length <= 100)).toBe(true)
    expect(chunks.at(-1)!.end).toBe(1000)
  })

  it('drops blank stretches and returns nothing for an empty document', () => {
    expect(chunkText('')).toEqual([])
    expect(chunkText('   \n\n  ')).toEqual([])
  })
})

describe('tokenize', () => {
  it('splits Latin words and Chinese runs into pairs', () => {
    expect(tokenize('Reset the Password!')).toEqual(['reset', 'the', 'password'])
    expect(tokenize('退款政策')).toEqual(['退款', '款政', '政策'])
  })
})

describe('keyword search (BM25)', () => {
  it('ranks the documents about the query first, with scores in [0, 1] and the best at 1', () => {
    const index = createKeywordIndex()
    index.add(corpusChunks(false))
    const hits = index.search('refund billing', 10)
    expect(
      hits
        .slice(0, 2)
        .map((h) => h.id)
        .sort(),
    ).toEqual(['c0', 'c5'])
    expect(hits[0]!.score).toBe(1)
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0)
    for (const hit of hits) expect(hit.score).toBeLessThanOrEqual(1)
  })

  it('finds Chinese text by its words', () => {
    const index = createKeywordIndex()
    index.add(corpusChunks(false))
    expect(index.search('退款', 3)[0]?.id).toBe('c6')
  })

  it('finds nothing for words no chunk has, and forgets removed chunks', () => {
    const index = createKeywordIndex()
    index.add(corpusChunks(false))
    expect(index.search('quantum chromodynamics', 5)).toEqual([])
    index.remove(['c3'])
    expect(index.search('topological', 5)).toEqual([])
  })
})

describe('vector search', () => {
  it('scores by cosine: the same direction 1, opposite 0 (not negative)', () => {
    expect(cosine([1, 0], [2, 0])).toBeCloseTo(1)
    const index = createVectorIndex()
    index.add('a', [1, 0])
    index.add('b', [-1, 0])
    index.add('c', [1, 1])
    const hits = index.search([1, 0], 5)
    expect(hits.map((h) => h.id)).toEqual(['a', 'c'])
    expect(hits[1]!.score).toBeCloseTo(Math.SQRT1_2)
  })

  it('leaves out a vector of another size instead of mis-scoring it', () => {
    const index = createVectorIndex()
    index.add('a', [1, 0, 0])
    index.add('b', [1, 0])
    expect(index.size).toBe(1)
    expect(index.search([1, 0], 5)).toEqual([])
  })
})

describe('reciprocal-rank fusion', () => {
  it('puts a chunk both lists rank high above one that only one list ranks first', () => {
    const fused = fuseRanks([
      [
        { id: 'a', score: 1 },
        { id: 'b', score: 0.9 },
        { id: 'c', score: 0.5 },
      ],
      [
        { id: 'b', score: 0.8 },
        { id: 'd', score: 0.7 },
        { id: 'a', score: 0.1 },
      ],
    ])
    expect(fused.map((h) => h.id)).toEqual(['b', 'a', 'd', 'c'])
    expect(fused[0]!.rrf).toBeCloseTo(1 / 62 + 1 / 61)
    expect(fused[0]!.score).toBeCloseTo(0.85)
    expect(fused.find((h) => h.id === 'd')!.score).toBeCloseTo(0.35)
  })
})

describe('a base index on the fixed corpus', () => {
  it('returns the expected top results with their sources, keyword only', () => {
    const base = createBaseIndex(corpusChunks(false))
    const hits = base.search('how do I reset my password', { topK: 2, minScore: 0 })
    expect(hits[0]).toMatchObject({ source: 'passwords.md', score: 1 })
    expect(base.search('topological sort cycle', { topK: 1, minScore: 0 }).map((h) => h.source)).toEqual([
      'kahn.md',
    ])
  })

  it('fuses keyword and demo-vector ranks and honours topK and minScore', () => {
    const base = createBaseIndex(corpusChunks(true))
    expect(base.hasVectors).toBe(true)
    const query = 'refund for digital goods'
    const hits = base.search(query, { topK: 3, minScore: 0, queryVector: demoVector(query) })
    expect(hits[0]!.source).toBe('refund-policy.md')
    // Only the two refund documents share a word with the query; nothing else is made up.
    expect(hits.map((h) => h.source)).toEqual(['refund-policy.md', 'refunds.md'])
    expect(base.search('shipping parcels', { topK: 1, minScore: 0 }).length).toBe(1)
    for (const hit of hits) expect(hit.score).toBeGreaterThanOrEqual(0)
    for (const hit of hits) expect(hit.score).toBeLessThanOrEqual(1)
    const strict = base.search(query, { topK: 3, minScore: 0.6, queryVector: demoVector(query) })
    expect(strict.map((h) => h.source)).toEqual(['refund-policy.md'])
  })
})
