/**
 * The degenerate-text detector against the contract of docs/guard.md ("Degenerate text"): a
 * sentence of up to 100 characters repeating back to back is caught within 2,000 characters of
 * its first repeat, however the stream is split; repetition inside code blocks, tables, lists,
 * headings and quotes is not degeneration.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createTextLoopDetector, type TextLoopTrip } from '../../../src/engine/run.ts'

/** Streams `text` in pieces of `size` characters; the trip, if any. */
function feed(text: string, size = 16): TextLoopTrip | undefined {
  const detector = createTextLoopDetector()
  for (let i = 0; i < text.length; i += size) {
    const trip = detector.push(text.slice(i, i + size))
    if (trip) return trip
  }
  return undefined
}

const SENTENCE_100 =
  'The quarterly figures show steady growth in every region, and the outlook for next year is good.'
const times = (n: number, s: string): string => Array.from({ length: n }, () => s).join('')

describe('degenerate text: caught', () => {
  it('stops a 100-character sentence repeated back to back within 2,000 characters of its first repeat', () => {
    const sentence = SENTENCE_100.padEnd(100, '!')
    expect(sentence).toHaveLength(100)
    const unit = `${sentence} `
    const trip = feed(times(40, unit))
    expect(trip).toBeDefined()
    expect((trip as TextLoopTrip).atChar - unit.length).toBeLessThanOrEqual(2000)
    expect(trip?.periodChars).toBe(unit.length)
    expect(trip?.count).toBeGreaterThanOrEqual(10)
  })

  it('catches any sentence of 5 to 100 characters, whatever the chunking, before 2,000 characters of repeats', () => {
    const word = fc.stringMatching(/^[a-z]{1,9}$/)
    const sentence = fc
      .array(word, { minLength: 1, maxLength: 20 })
      .map((words) => `${words.join(' ')}.`)
      .filter((s) => s.length >= 5 && s.length <= 100)
    fc.assert(
      fc.property(
        sentence,
        fc.constantFrom(' ', '\n', '\n\n'),
        fc.integer({ min: 1, max: 97 }),
        (s, sep, size) => {
          const unit = s + sep
          const intro = 'Here is what I found after reading the report you sent this morning. '
          const trip = feed(intro + times(Math.ceil(4000 / unit.length), unit), size)
          expect(trip).toBeDefined()
          expect((trip as TextLoopTrip).atChar - intro.length - unit.length).toBeLessThanOrEqual(2000)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('gives the same trip point whether the stream comes whole, in pieces, or one character at a time', () => {
    const text = `Sure! ${times(30, 'I will now repeat this line again. ')}`
    const whole = feed(text, text.length)
    expect(whole).toBeDefined()
    expect(feed(text, 1)).toEqual(whole)
    expect(feed(text, 13)).toEqual(whole)
  })

  it('sees through whitespace that varies between the repeats', () => {
    const units = ['All done here. ', 'All done here.  ', 'All done here.\n', 'All done here.\t']
    const text = Array.from({ length: 60 }, (_, i) => units[i % units.length]).join('')
    expect(feed(text)).toBeDefined()
  })

  it('stops a very short loop ("ha") once it covers the minimum span, not before', () => {
    expect(feed(`That is funny. ${times(40, 'ha')}`)).toBeUndefined()
    expect(feed(`That is funny. ${times(200, 'ha')}`)).toBeDefined()
  })

  it('starts watching again after a code block closes', () => {
    const code = '```js\nconsole.log(1)\n```\n'
    expect(feed(code + times(40, 'The build is green again and nothing else changed. '))).toBeDefined()
  })

  it('quotes the repeated text in its trip and keeps reporting the trip after it', () => {
    const detector = createTextLoopDetector()
    const trip = detector.push(times(30, 'Please wait while I check. '))
    expect(trip?.quote).toMatch(/Please wait while I check|wait while I check/)
    expect(trip?.quote.length).toBeLessThanOrEqual(41)
    expect(detector.push('more')).toBe(trip)
    expect(detector.tripped).toBe(trip)
  })
})

describe('degenerate text: not caught', () => {
  it('ignores repetition inside fenced code blocks (backticks and tildes, indented in a list too)', () => {
    const line = 'assert response.status_code == 200, "unexpected status"\n'
    expect(feed(`Here is the test:\n\n\`\`\`python\n${times(60, line)}\`\`\`\n\nRun it.`)).toBeUndefined()
    expect(feed(`~~~\n${times(60, line)}~~~\n`)).toBeUndefined()
    expect(feed(`1. Add the checks:\n   \`\`\`\n${times(60, line)}   \`\`\`\n`)).toBeUndefined()
  })

  it('ignores repetition inside lists, bulleted and numbered', () => {
    const item = 'Check that the cable is connected and the light is green.\n'
    expect(feed(times(40, `- ${item}`))).toBeUndefined()
    expect(feed(times(40, `* ${item}`))).toBeUndefined()
    expect(feed(Array.from({ length: 40 }, (_, i) => `${i + 1}. ${item}`).join(''))).toBeUndefined()
    expect(feed(Array.from({ length: 40 }, (_, i) => `${i + 1}) ${item}`).join(''))).toBeUndefined()
  })

  it('ignores repetition inside tables, headings, quotes and indented lines', () => {
    const row = '| pending | not yet shipped | waiting for the warehouse to confirm |\n'
    expect(feed(`| status | meaning | note |\n|---|---|---|\n${times(40, row)}`)).toBeUndefined()
    expect(feed(times(30, '## Results for the same quarter of the same year\n\n'))).toBeUndefined()
    expect(feed(times(30, '> To be, or not to be, that is the question of the day.\n'))).toBeUndefined()
    expect(feed(times(30, '    return the same value from the same function again\n'))).toBeUndefined()
  })

  it('ignores JSON records with the same fields and values', () => {
    const records = Array.from(
      { length: 40 },
      (_, i) =>
        `  {"id": ${i}, "status": "active", "region": "eu-west-1", "tier": "gold", "owner": "team-a"}`,
    )
    expect(feed(`[\n${records.join(',\n')}\n]`)).toBeUndefined()
    expect(feed(`[${records.map((r) => r.trim()).join(',')}]`)).toBeUndefined()
  })

  it('does not mistake a decimal number at a line start for a list, nor count a long varied text', () => {
    const text = Array.from(
      { length: 80 },
      (_, i) => `Paragraph ${i} explains step ${i * 3} of the migration, which touches table t${i}. `,
    ).join('\n')
    expect(feed(text)).toBeUndefined()
    expect(feed(`3.14 is close to pi. ${times(30, 'Pi is close to 3.14 and that is all. ')}`)).toBeDefined()
  })

  it('tells a refrain between verses that differ from a verse and refrain repeated word for word', () => {
    const refrain = 'Oh the wind will carry me home, oh the wind will carry me home.'
    const song = Array.from(
      { length: 12 },
      (_, i) =>
        `Verse ${i}: the rivers wind through valleys ${i} and hills and towns of old and grey.\n${refrain}\n\n`,
    ).join('')
    expect(feed(song, 5)).toBeUndefined()
    const stuck = times(
      12,
      `Verse 1: the rivers wind through valleys and hills and towns of old and grey.\n${refrain}\n\n`,
    )
    expect(feed(stuck, 5)).toBeDefined()
  })
})
