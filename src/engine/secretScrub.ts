/**
 * Keeping configured secrets (API keys, secret header values) out of what a run shows and keeps.
 * A server may quote the key it was sent (a 401's message, an echo), and a streamed reply may
 * split it across two pieces, which a per-piece check never sees: `EventScrubber` scrubs the
 * merged text of each stream and holds back a tail that could be the start of a secret until
 * the next piece (or the node's end) tells.
 */
import { IMPORT_MAX_JSON_DEPTH } from '../defaults.ts'
import type { NodeChunkEvent, RunEvent } from './events.ts'
import { nodeStreamKey } from './nesting.ts'

/** What a secret is replaced by. */
export const REDACTED = '[redacted]'

function needlesOf(secrets: readonly string[]): string[] {
  return [...new Set(secrets.filter((s) => s !== ''))].sort((a, b) => b.length - a.length)
}

function scrubNeedles(text: string, needles: readonly string[]): string {
  let out = text
  for (const s of needles) if (out.includes(s)) out = out.split(s).join(REDACTED)
  return out
}

/** `text` with every secret replaced; the same string when it holds none. */
export function scrubText(text: string, secrets: readonly string[]): string {
  return scrubNeedles(text, needlesOf(secrets))
}

/**
 * Replaces every occurrence of the given secrets in every string of `value`. What holds no
 * secret is returned as it is, without a copy: a run scrubs each of thousands of streamed
 * events, and almost none holds one.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const needles = needlesOf(secrets)
  if (needles.length === 0) return value
  const holds = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return needles.some((s) => v.includes(s))
    if (depth > IMPORT_MAX_JSON_DEPTH || typeof v !== 'object' || v === null) return false
    for (const key in v) if (holds((v as Record<string, unknown>)[key], depth + 1)) return true
    return false
  }
  if (!holds(value, 0)) return value
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return scrubNeedles(v, needles)
    if (depth > IMPORT_MAX_JSON_DEPTH || typeof v !== 'object' || v === null) return v
    if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1))
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, depth + 1)]))
  }
  return walk(value, 0) as T
}

/**
 * Where the longest suffix of `text` starts that is the start (not the whole) of a secret, or
 * `text.length` when none is. Only the last `longest - 1` characters can be one.
 */
function heldFrom(text: string, needles: readonly string[], longest: number): number {
  for (let at = Math.max(0, text.length - longest + 1); at < text.length; at += 1) {
    const tail = text.slice(at)
    if (needles.some((s) => s.length > tail.length && s.startsWith(tail))) return at
  }
  return text.length
}

interface Pending {
  event: NodeChunkEvent
  text: string
}

/**
 * Scrubs a run's events in order. Streamed text is scrubbed as the merged text of its stream
 * (node and channel), never piece by piece: the tail that could begin a secret waits for the
 * next piece, and comes out before any other event of its node or the run's end, so the order
 * of what is shown stays the same. A piece that is all held back yields no event.
 */
export class EventScrubber {
  private readonly needles: string[]
  private readonly longest: number
  /** Held tails by node id, then channel (Maps: ids are arbitrary strings, `__proto__` too). */
  private readonly pending = new Map<string, Map<string, Pending>>()

  constructor(secrets: readonly string[]) {
    this.needles = needlesOf(secrets)
    this.longest = this.needles[0]?.length ?? 0
  }

  /** The events to pass on for `event`, in order (none while a whole piece is held). */
  push(event: RunEvent): RunEvent[] {
    if (this.needles.length === 0) return [event]
    if (event.type === 'nodeChunk') return this.chunk(event)
    const out =
      event.type === 'runFinish' ? this.flushAll() : 'nodeId' in event ? this.flush(nodeStreamKey(event)) : []
    out.push(scrubSecrets(event, this.needles))
    return out
  }

  /** Whatever is still held, e.g. when the run's events ended without a runFinish. */
  end(): RunEvent[] {
    return this.flushAll()
  }

  private chunk(event: NodeChunkEvent): RunEvent[] {
    const key = nodeStreamKey(event)
    let streams = this.pending.get(key)
    const held = streams?.get(event.channel)
    const merged = scrubNeedles((held?.text ?? '') + event.text, this.needles)
    const cut = heldFrom(merged, this.needles, this.longest)
    if (cut < merged.length) {
      if (!streams) this.pending.set(key, (streams = new Map()))
      streams.set(event.channel, { event, text: merged.slice(cut) })
    } else streams?.delete(event.channel)
    if (cut === 0) return []
    const shown = merged.slice(0, cut)
    return [shown === event.text ? event : { ...event, text: shown }]
  }

  private flush(nodeId: string): RunEvent[] {
    const streams = this.pending.get(nodeId)
    if (!streams) return []
    this.pending.delete(nodeId)
    return [...streams.values()].map((p) => ({ ...p.event, text: p.text }))
  }

  private flushAll(): RunEvent[] {
    return [...this.pending.keys()].flatMap((nodeId) => this.flush(nodeId))
  }
}
