/**
 * Degenerate-text detector bench (`npx tsx bench/textLoop.bench.ts`, part of `npm run bench`):
 * CPU time per streamed character of `createTextLoopDetector().push`, fed in 4-character deltas
 * (about one token each, the finest a provider streams), over the ordinary-replies corpus (the
 * common case: nothing trips, every character is hashed or filtered) and over pure prose. Target:
 * p50 <= 1 µs per character (docs/guard.md). Prints a table and exits non-zero when it fails.
 *
 * CPU time (process.cpuUsage), not wall time: the project's 2-core machines are shared, and
 * waiting for a core would inflate wall-time figures at random.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createTextLoopDetector, readChatStream, type ChatChunk } from '../src/engine/run.ts'

const TARGET_US_PER_CHAR = 1
const DELTA_CHARS = 4
const ROUNDS = 31

function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

const dir = new URL('../tests/fixtures/ordinary-replies/', import.meta.url).pathname
const corpus = readdirSync(dir)
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => readFileSync(join(dir, name), 'utf8'))
const prose = corpus.filter((text) => !text.includes('```') && !/^\s*[-*|\d]/m.test(text))

function deltasOf(texts: readonly string[]): string[][] {
  return texts.map((text) => {
    const out: string[] = []
    for (let i = 0; i < text.length; i += DELTA_CHARS) out.push(text.slice(i, i + DELTA_CHARS))
    return out
  })
}

/** Trips on ordinary text (must stay 0), and characters seen (keeps the work from being optimised away). */
let trips = 0
let seen = 0

/** Median CPU µs per character over rounds; each round streams every reply through a fresh detector. */
function perChar(replies: readonly string[][]): number {
  const chars = replies.reduce((sum, deltas) => sum + deltas.join('').length, 0)
  const once = () => {
    for (const deltas of replies) {
      const detector = createTextLoopDetector()
      for (const delta of deltas) if (detector.push(delta)) trips++
    }
  }
  for (let i = 0; i < 5; i++) once() // warm-up / JIT
  const samples: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const start = cpuMs()
    for (let rep = 0; rep < 4; rep++) once()
    samples.push(((cpuMs() - start) * 1000) / (4 * chars))
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)] as number
}

const rows = [
  { name: `ordinary corpus (${corpus.length} replies)`, us: perChar(deltasOf(corpus)) },
  { name: `plain prose only (${prose.length} replies)`, us: perChar(deltasOf(prose)) },
]
/**
 * The engine side of the 20,000-token stream (one chunk per token, as bench/browser/stream.mjs
 * sends it): CPU time of reading it with readChatStream, detector on against off, in one run,
 * rounds interleaved. The page's own work per token (store, console) comes on top of the "off"
 * side, so the detector's share of the main thread is smaller than this ratio shows.
 */
const STREAM_TOKENS = 20_000
const tokens = Array.from({ length: STREAM_TOKENS }, (_, i) => (i % 12 === 11 ? `t${i}\n` : `t${i} `))
const sinkText = { text: (t: string) => (seen += t.length), reasoning: () => undefined }

async function* streamOf(): AsyncGenerator<ChatChunk> {
  for (const text of tokens) yield { type: 'text', text }
  yield {
    type: 'done',
    result: { text: '', reasoning: '', toolCalls: [], finishReason: 'stop', model: 'bench' },
  }
}

async function streamMs(on: boolean): Promise<number> {
  const start = cpuMs()
  const reply = await readChatStream(streamOf(), on ? createTextLoopDetector() : undefined, sinkText)
  if (reply.trip) throw new Error('the bench stream tripped the detector')
  return cpuMs() - start
}

const onMs: number[] = []
const offMs: number[] = []
for (let i = 0; i < 3; i++) await Promise.all([streamMs(true), streamMs(false)]) // warm-up
for (let round = 0; round < ROUNDS; round++) {
  offMs.push(await streamMs(false))
  onMs.push(await streamMs(true))
}
const median = (list: number[]): number =>
  [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] as number
const extraPercent = ((median(onMs) - median(offMs)) / median(offMs)) * 100

const pad = (text: string, width: number): string => text.padEnd(width)
console.log(`${pad('stream', 40)}${pad('µs/char p50', 14)}${pad('target', 12)}result`)
let failed = 0
for (const row of rows) {
  const pass = row.us <= TARGET_US_PER_CHAR
  if (!pass) failed++
  console.log(
    `${pad(row.name, 40)}${pad(row.us.toFixed(3), 14)}${pad(`<= ${TARGET_US_PER_CHAR}`, 12)}${pass ? 'PASS' : 'FAIL'}`,
  )
}
// Info, not a target: the issue's bound (<= 5 % extra main-thread CPU) is on the browser stream
// bench, where the page's own work per token is the denominator; here the denominator is only
// the async-iterator read, so the ratio is far larger than the page would see.
console.log(
  `\n20,000-token stream read by the engine (info): off ${median(offMs).toFixed(2)} ms, on ${median(onMs).toFixed(2)} ms CPU (p50), ` +
    `detector adds ${(median(onMs) - median(offMs)).toFixed(2)} ms (${extraPercent.toFixed(0)} % of the bare read)`,
)
if (trips !== 0) console.log(`(unexpected: ${trips} trips on ordinary text)`)
if (seen === 0) failed++
process.exit(failed === 0 && trips === 0 ? 0 : 1)
