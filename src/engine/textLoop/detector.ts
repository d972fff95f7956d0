/**
 * The degenerate-text detector (docs/guard.md, "Degenerate text"): fed a model reply as it
 * streams, it trips when the prose starts repeating itself. The idea follows Gemini CLI's
 * content-loop detection (hash fixed-size chunks of the stream; trip when one chunk recurs many
 * times close together; structured Markdown does not count), written from scratch.
 *
 * How: whitespace runs collapse to one space; every position of the prose gets the hash of the
 * `chunkChars` characters ending there (a rolling hash, O(1) per character). A map from hash
 * to its last position (a fixed-size table, see below) finds the previous occurrence; when that one is at most `maxGapChars`
 * back, the occurrence extends its chain (count + 1, same start). A chain of `repeats`
 * occurrences covering at least `minSpanChars` trips, when the stretch since the previous
 * occurrence repeats as a whole (TEXT_LOOP_MIN_REPEATED_SHARE of its positions chain too): a
 * song's refrain recurs between verses that differ, a loop has nothing that differs. A sentence of p characters repeated back
 * to back makes every chunk recur every p characters, so with the defaults a 100-character
 * sentence trips about 900 characters after its first repeat began.
 *
 * Cost: a few multiplications and one table probe per character. The table is direct-mapped
 * (a new chunk overwrites whatever shared its slot): only positions within `maxGapChars` can
 * chain, so it needs to hold few live chunks, and a rare eviction only breaks one chain of the
 * hundreds a looping stream builds. Memory is fixed (TABLE_SLOTS), however long the reply; a
 * Map with pruning cost twice as much CPU on token-sized deltas (bench/textLoop.bench.ts).
 */
import {
  TEXT_LOOP_CHUNK_CHARS,
  TEXT_LOOP_MAX_GAP_CHARS,
  TEXT_LOOP_MIN_REPEATED_SHARE,
  TEXT_LOOP_MIN_SPAN_CHARS,
  TEXT_LOOP_QUOTE_CHARS,
  TEXT_LOOP_REPEATS,
} from '../../defaults.ts'
import { ProseFilter, type ProseSink } from './lines.ts'

export interface TextLoopConfig {
  /** Characters per hashed chunk. */
  chunkChars: number
  /** Occurrences of one chunk, each close to the previous, that make a loop. */
  repeats: number
  /** Most prose characters between two occurrences that still count as close. */
  maxGapChars: number
  /** Least prose characters the repeated stretch must cover. */
  minSpanChars: number
}

/** What the detector saw when it tripped. */
export interface TextLoopTrip {
  /** Occurrences of the repeated chunk in its chain. */
  count: number
  /** Prose characters between its last two occurrences: the length of the repeating unit. */
  periodChars: number
  /** The start of the repeated chunk, whitespace collapsed, for the console line. */
  quote: string
  /** Characters of the raw stream fed when it tripped. */
  atChar: number
}

export interface TextLoopDetector {
  /** Feeds streamed text; returns the trip once the reply has degenerated (and every time after). */
  push(delta: string): TextLoopTrip | undefined
  readonly tripped: TextLoopTrip | undefined
}

export function defaultTextLoopConfig(): TextLoopConfig {
  return {
    chunkChars: TEXT_LOOP_CHUNK_CHARS,
    repeats: TEXT_LOOP_REPEATS,
    maxGapChars: TEXT_LOOP_MAX_GAP_CHARS,
    minSpanChars: TEXT_LOOP_MIN_SPAN_CHARS,
  }
}

// Two polynomial hashes modulo primes below 2^26: every intermediate stays below 2^53, and a
// false match needs both to collide.
const P1 = 67_108_859
const P2 = 67_108_837
const BASE1 = 257
const BASE2 = 263
const SPACE = 32
/** Slots of the chunk table (a power of two), many times the live chunks (maxGapChars). */
const TABLE_SLOTS = 8192
const TABLE_MASK = TABLE_SLOTS - 1
const NEVER = -1e15

function powMod(base: number, exp: number, mod: number): number {
  let out = 1
  for (let i = 0; i < exp; i++) out = (out * base) % mod
  return out
}

const isSpace = (c: number): boolean => c === SPACE || c === 9 || c === 13 || c === 10 || c === 0xa0

class Detector implements TextLoopDetector, ProseSink {
  tripped: TextLoopTrip | undefined
  private readonly filter = new ProseFilter(this)
  private readonly ring: Uint16Array
  private readonly pow1: number
  private readonly pow2: number
  private readonly window: number
  private h1 = 0
  private h2 = 0
  private filled = 0
  private lastSpace = true
  /** Prose characters so far (after whitespace collapsing). */
  private pos = 0
  private raw = 0
  private readonly slotH1 = new Int32Array(TABLE_SLOTS)
  private readonly slotH2 = new Int32Array(TABLE_SLOTS)
  private readonly slotAt = new Float64Array(TABLE_SLOTS).fill(NEVER)
  /** Per position modulo `window`: its chain's count and start. */
  private readonly chainCount: Int32Array
  private readonly chainStart: Float64Array

  constructor(private readonly cfg: TextLoopConfig) {
    this.ring = new Uint16Array(cfg.chunkChars)
    this.pow1 = powMod(BASE1, cfg.chunkChars - 1, P1)
    this.pow2 = powMod(BASE2, cfg.chunkChars - 1, P2)
    this.window = cfg.maxGapChars + 1
    this.chainCount = new Int32Array(this.window)
    this.chainStart = new Float64Array(this.window)
  }

  push(delta: string): TextLoopTrip | undefined {
    if (this.tripped) return this.tripped
    for (let i = 0; i < delta.length; i++) {
      this.raw++
      this.filter.push(delta.charCodeAt(i))
      if (this.tripped) return this.tripped
    }
    return undefined
  }

  gap(): void {
    this.filled = 0
    this.h1 = 0
    this.h2 = 0
    this.lastSpace = true
  }

  prose(code: number): void {
    let c = code
    if (isSpace(c)) {
      if (this.lastSpace) return
      this.lastSpace = true
      c = SPACE
    } else this.lastSpace = false
    const size = this.cfg.chunkChars
    const slot = this.pos % size
    if (this.filled >= size) {
      const out = this.ring[slot] as number
      this.h1 = (this.h1 - ((out * this.pow1) % P1) + P1) % P1
      this.h2 = (this.h2 - ((out * this.pow2) % P2) + P2) % P2
    } else this.filled++
    this.ring[slot] = c
    this.h1 = (this.h1 * BASE1 + c) % P1
    this.h2 = (this.h2 * BASE2 + c) % P2
    const at = this.pos++
    if (this.filled >= size) this.occurrence(this.h1, this.h2, at)
    else this.chainCount[at % this.window] = 0
  }

  private occurrence(h1: number, h2: number, at: number): void {
    const { maxGapChars, repeats, minSpanChars, chunkChars } = this.cfg
    const index = ((h1 * 31) ^ h2) & TABLE_MASK
    const seen = this.slotH1[index] === h1 && this.slotH2[index] === h2
    const prev = seen ? (this.slotAt[index] as number) : undefined
    this.slotH1[index] = h1
    this.slotH2[index] = h2
    this.slotAt[index] = at
    const slot = at % this.window
    let count = 1
    let start = at
    if (prev !== undefined && at - prev <= maxGapChars) {
      const prevSlot = prev % this.window
      count = (this.chainCount[prevSlot] as number) + 1
      start = this.chainStart[prevSlot] as number
    }
    this.chainCount[slot] = count
    this.chainStart[slot] = start
    if (
      prev !== undefined &&
      count >= repeats &&
      at - start + chunkChars >= minSpanChars &&
      this.repeatsWhole(at, at - prev)
    )
      this.tripped = { count, periodChars: at - prev, quote: this.quote(), atChar: this.raw }
  }

  /** Whether most positions of the last `period` chain as well (runs only on a would-be trip). */
  private repeatsWhole(at: number, period: number): boolean {
    let chained = 0
    for (let x = at - period + 1; x <= at; x++)
      if ((this.chainCount[x % this.window] as number) >= 2) chained++
    return chained >= period * TEXT_LOOP_MIN_REPEATED_SHARE
  }

  /** The current chunk (the one that repeated), oldest character first. */
  private quote(): string {
    const size = this.cfg.chunkChars
    const codes: number[] = []
    for (let i = 0; i < size; i++) codes.push(this.ring[(this.pos + i) % size] as number)
    const text = String.fromCharCode(...codes).trim()
    return text.length > TEXT_LOOP_QUOTE_CHARS ? `${text.slice(0, TEXT_LOOP_QUOTE_CHARS)}…` : text
  }
}

/** A detector for one streamed reply; unset fields take the defaults of src/defaults.ts. */
export function createTextLoopDetector(config: Partial<TextLoopConfig> = {}): TextLoopDetector {
  return new Detector({ ...defaultTextLoopConfig(), ...config })
}
