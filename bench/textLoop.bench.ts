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
import { createTextLoopDetector } from '../src/engine/index.ts'

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

let sink = 0

/** Median CPU µs per character over rounds; each round streams every reply through a fresh detector. */
function perChar(replies: readonly string[][]): number {
  const chars = replies.reduce((sum, deltas) => sum + deltas.join('').length, 0)
  const once = () => {
    for (const deltas of replies) {
      const detector = createTextLoopDetector()
      for (const delta of deltas) if (detector.push(delta)) sink++
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
if (sink !== 0) console.log(`(unexpected: ${sink} trips on ordinary text)`)
process.exit(failed === 0 && sink === 0 ? 0 : 1)
