import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EventScrubber, scrubText, type RunEvent } from '../../src/engine/index.ts'

const RUN = 'run_1'
const chunk = (nodeId: string, text: string, channel: 'output' | 'log' = 'output'): RunEvent => ({
  type: 'nodeChunk',
  runId: RUN,
  at: 1,
  nodeId,
  text,
  channel,
})
const finish = (nodeId: string): RunEvent => ({
  type: 'nodeFinish',
  runId: RUN,
  at: 2,
  nodeId,
  status: 'success',
  output: {},
  durationMs: 1,
})
const runFinish: RunEvent = {
  type: 'runFinish',
  runId: RUN,
  at: 3,
  status: 'success',
  durationMs: 3,
  usage: { prompt: 0, completion: 0, total: 0, estimated: false },
}

/** Cuts `text` at the given positions (any order, repeats allowed). */
function pieces(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let from = 0
  for (const cut of [...at, text.length]) {
    out.push(text.slice(from, cut))
    from = cut
  }
  return out.filter((p) => p !== '')
}

function streamed(events: readonly RunEvent[], nodeId: string): string {
  return events
    .filter(
      (e): e is Extract<RunEvent, { type: 'nodeChunk' }> => e.type === 'nodeChunk' && e.nodeId === nodeId,
    )
    .map((e) => e.text)
    .join('')
}

const secretArb = fc.string({
  unit: fc.constantFrom('s', 'k', '-', 'a', 'b', '1', 'x'),
  minLength: 2,
  maxLength: 24,
})
const textArb = fc.string({
  unit: fc.constantFrom('s', 'k', '-', 'a', 'b', '1', ' ', 'é', '\n'),
  maxLength: 40,
})

describe('EventScrubber', () => {
  it('holds a tail that may begin a key and lets it out once the next piece tells', () => {
    const scrubber = new EventScrubber(['sk-live-123'])
    expect(scrubber.push(chunk('llm', 'key: sk-li'))).toEqual([chunk('llm', 'key: ')])
    expect(scrubber.push(chunk('llm', 've-123 done'))).toEqual([chunk('llm', '[redacted] done')])
    expect(scrubber.push(chunk('llm', 'bye s'))).toEqual([chunk('llm', 'bye ')])
    // The node's end lets out what was held, before the end itself.
    expect(scrubber.push(finish('llm'))).toEqual([chunk('llm', 's'), finish('llm')])
  })

  it('keeps streams apart: another node or channel does not complete a held key', () => {
    const scrubber = new EventScrubber(['sk-live-123'])
    const out = [
      ...scrubber.push(chunk('a', 'sk-live')),
      ...scrubber.push(chunk('b', '-123')),
      ...scrubber.push(chunk('a', '-1', 'log')),
      ...scrubber.push(runFinish),
    ]
    expect(streamed(out, 'a')).toBe('-1sk-live')
    expect(out.at(-1)).toEqual(runFinish)
  })

  it('passes events through untouched when no secret is configured', () => {
    const event = chunk('llm', 'sk-live')
    expect(new EventScrubber(['']).push(event)[0]).toBe(event)
  })

  it('property: no split of a text holding a secret shows the secret in the merged output', () => {
    fc.assert(
      fc.property(
        fc.array(secretArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(textArb, fc.nat(2)), { maxLength: 5 }),
        fc.array(fc.nat(200), { maxLength: 12 }),
        (secrets, parts, cuts) => {
          // The text holds the secrets, whole or overlapping, between hostile filler.
          const text = parts.map(([filler, i]) => `${filler}${secrets[i % secrets.length]}`).join('')
          const scrubber = new EventScrubber(secrets)
          const out: RunEvent[] = []
          for (const piece of pieces(text, cuts)) out.push(...scrubber.push(chunk('llm', piece)))
          out.push(...scrubber.push(finish('llm')))
          const merged = streamed(out, 'llm')
          for (const secret of secrets) expect(merged).not.toContain(secret)
          // One secret: exactly what scrubbing the whole text at once gives.
          if (secrets.length === 1) expect(merged).toBe(scrubText(text, secrets))
          for (const e of out) if (e.type === 'nodeChunk') expect(e.text).not.toBe('')
          expect(out.at(-1)).toEqual(finish('llm'))
        },
      ),
    )
  })
})
