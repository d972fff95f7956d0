/**
 * Ordinary replies never trip the degenerate-text detector: a corpus of lists, code, tables,
 * long prose, poems and songs with refrains, numbered steps, JSON, CSV and Markdown documents
 * (tests/fixtures/ordinary-replies), streamed in pieces of several sizes.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTextLoopDetector } from '../../../src/engine/run.ts'

const DIR = join(import.meta.dirname, '../../fixtures/ordinary-replies')
const FILES = readdirSync(DIR)
  .filter((name) => name.endsWith('.md'))
  .sort()
const SIZES = [1, 3, 17, 64, Number.MAX_SAFE_INTEGER]

function tripsAt(text: string, size: number): string | undefined {
  const detector = createTextLoopDetector()
  for (let i = 0; i < text.length; i += size) {
    const trip = detector.push(text.slice(i, i + size))
    if (trip) return `tripped at ${trip.atChar} on "${trip.quote}" (${trip.count} times)`
  }
  return undefined
}

describe('the ordinary-replies corpus', () => {
  it('holds at least 50 replies', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(50)
  })

  it.each(FILES)('%s never trips, however it is streamed', (name) => {
    const text = readFileSync(join(DIR, name), 'utf8')
    expect(text.trim().length).toBeGreaterThan(150)
    for (const size of SIZES) expect(tripsAt(text, size), `pieces of ${size}`).toBeUndefined()
  })

  it('does not trip when a whole reply is said twice (a repeat, not a loop)', () => {
    for (const name of FILES) {
      const text = readFileSync(join(DIR, name), 'utf8')
      expect(tripsAt(`${text}\n\n${text}`, 64), name).toBeUndefined()
    }
  })
})
