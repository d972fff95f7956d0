/**
 * Knowledge bench (`npx tsx bench/knowledge.bench.ts`, part of `npm run bench`):
 * - indexing 1 MB of text (~1,000 chunks of the default size): chunking, the demo's vectors and
 *   the BM25 and vector indexes, through the knowledge worker's own message loop (messages
 *   structured-cloned as between threads; Node has no Web Worker), target <= 1 s;
 * - one query over a base of 10,000 chunks (keyword and vector ranks fused), target <= 10 ms p50.
 * Times are CPU ms of this process (a shared machine's waits for a core are not counted), wall
 * time beside. Prints a table and exits non-zero when a target fails.
 */
import { KNOWLEDGE_CHUNK_OVERLAP_CHARS, KNOWLEDGE_CHUNK_SIZE_CHARS } from '../src/defaults.ts'
import { createKnowledgeWorkerLoop } from '../src/knowledge/workerLoop.ts'
import type { KnowledgeWorkerReply, KnowledgeWorkerRequest } from '../src/knowledge/workerProtocol.ts'

const TARGET_INDEX_MS = 1_000
const TARGET_QUERY_P50_MS = 10
const TEXT_BYTES = 1_000_000
const BASE_CHUNKS = 10_000
const INDEX_ROUNDS = 5
const QUERIES = 200

function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Deterministic prose from a 2,000-word vocabulary (a small LCG, so every run is the same). */
function prose(bytes: number, seed = 7): string {
  let state = seed
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0)
  const vocabulary = Array.from({ length: 2_000 }, (_, i) => `w${(i * 7919) % 104_729}x${i % 13}`)
  const parts: string[] = []
  let size = 0
  while (size < bytes) {
    const length = 8 + (next() % 14)
    const words = Array.from({ length }, () => vocabulary[next() % vocabulary.length] as string)
    const sentence = `${words.join(' ')}.${next() % 5 === 0 ? '\n\n' : ' '}`
    parts.push(sentence)
    size += sentence.length
  }
  return parts.join('').slice(0, bytes)
}

/** One in-process "worker": requests and replies cross a structured clone, as postMessage does. */
function worker(): (request: KnowledgeWorkerRequest) => KnowledgeWorkerReply {
  let last: KnowledgeWorkerReply | undefined
  const handle = createKnowledgeWorkerLoop((reply) => (last = structuredClone(reply)))
  return (request) => {
    handle(structuredClone(request))
    if (last === undefined) throw new Error('no reply')
    return last
  }
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

const text = prose(TEXT_BYTES)
const indexCpu: number[] = []
const indexWall: number[] = []
let chunkCount = 0
for (let round = 0; round < INDEX_ROUNDS; round++) {
  const ask = worker()
  const [cpu0, wall0] = [cpuMs(), performance.now()]
  const chunked = ask({
    type: 'chunk',
    id: 1,
    text,
    sizeChars: KNOWLEDGE_CHUNK_SIZE_CHARS,
    overlapChars: KNOWLEDGE_CHUNK_OVERLAP_CHARS,
    demoVectors: true,
  })
  if (chunked.type !== 'chunked') throw new Error(`chunk: ${chunked.type}`)
  const loaded = ask({
    type: 'load',
    id: 2,
    baseId: 'kb',
    stamp: 1,
    chunks: chunked.chunks.map((c, i) => ({
      id: `c${i}`,
      text: c.text,
      source: 'doc.txt',
      ...(c.vector ? { vector: c.vector } : {}),
    })),
  })
  if (loaded.type !== 'loaded') throw new Error(`load: ${loaded.type}`)
  indexCpu.push(cpuMs() - cpu0)
  indexWall.push(performance.now() - wall0)
  chunkCount = loaded.size
}

// A 10,000-chunk base: ten times the megabyte's chunks, each copy its own ids and words.
const ask = worker()
const base: Array<{ id: string; text: string; source: string; vector?: Float32Array }> = []
for (let copy = 0; base.length < BASE_CHUNKS; copy++) {
  const chunked = ask({
    type: 'chunk',
    id: 10 + copy,
    text: prose(TEXT_BYTES, 100 + copy),
    sizeChars: KNOWLEDGE_CHUNK_SIZE_CHARS,
    overlapChars: KNOWLEDGE_CHUNK_OVERLAP_CHARS,
    demoVectors: true,
  })
  if (chunked.type !== 'chunked') throw new Error('chunk')
  for (const c of chunked.chunks)
    if (base.length < BASE_CHUNKS)
      base.push({
        id: `c${base.length}`,
        text: c.text,
        source: `doc${copy}.txt`,
        ...(c.vector ? { vector: c.vector } : {}),
      })
}
const loadedBase = ask({ type: 'load', id: 99, baseId: 'big', stamp: 1, chunks: base })
if (loadedBase.type !== 'loaded' || loadedBase.size !== BASE_CHUNKS) throw new Error('load big')
const words = text.split(/\s+/).filter((w) => w.length > 3)
const queryCpu: number[] = []
const queryWall: number[] = []
let found = 0
for (let q = 0; q < QUERIES + 20; q++) {
  const query = `${words[(q * 37) % words.length]} ${words[(q * 91 + 5) % words.length]} ${words[(q * 53 + 11) % words.length]}`
  const [cpu0, wall0] = [cpuMs(), performance.now()]
  const reply = ask({
    type: 'search',
    id: 1000 + q,
    baseId: 'big',
    query,
    topK: 4,
    minScore: 0,
    queryVector: 'demo',
  })
  const [cpu, wall] = [cpuMs() - cpu0, performance.now() - wall0]
  if (reply.type !== 'results') throw new Error('search')
  if (q < 20) continue // warm-up
  found += reply.hits.length
  queryCpu.push(cpu)
  queryWall.push(wall)
}

const rows = [
  [
    'indexing 1 MB of text in the worker loop (CPU ms, median of 5)',
    median(indexCpu),
    median(indexWall),
    `<= ${TARGET_INDEX_MS} ms`,
    median(indexCpu) <= TARGET_INDEX_MS,
  ],
  [
    `query over ${BASE_CHUNKS.toLocaleString('en')} chunks, keyword + vector fused (CPU ms, p50 of ${QUERIES})`,
    median(queryCpu),
    median(queryWall),
    `<= ${TARGET_QUERY_P50_MS} ms`,
    median(queryCpu) <= TARGET_QUERY_P50_MS,
  ],
] as const
console.log(`1 MB of text -> ${chunkCount} chunks; ${found / QUERIES} results per query on average`)
console.log('measure | CPU ms | wall ms | target | result')
console.log('--- | --- | --- | --- | ---')
for (const [name, cpu, wall, target, ok] of rows)
  console.log(`${name} | ${cpu.toFixed(2)} | ${wall.toFixed(2)} | ${target} | ${ok ? 'PASS' : 'FAIL'}`)
process.exitCode = rows.every((row) => row[4]) ? 0 : 1
