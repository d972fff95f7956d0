import { describe, expect, it } from 'vitest'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { loadTokenCounter, loadTokenEstimator } from '../../src/providers/tokens.ts'

describe('loadTokenCounter', () => {
  it('counts tokens with a real BPE tokenizer', async () => {
    const count = await loadTokenCounter()
    expect(count('')).toBe(0)
    expect(count('hello world')).toBe(2)
    // A long English paragraph is roughly four characters per token, never one per character.
    const paragraph = 'The quick brown fox jumps over the lazy dog. '.repeat(20)
    const tokens = count(paragraph)
    expect(tokens).toBeGreaterThan(paragraph.length / 8)
    expect(tokens).toBeLessThan(paragraph.length / 3)
  })

  it('counts special-token text as text instead of throwing', async () => {
    const count = await loadTokenCounter()
    const text = 'before <|endoftext|> after'
    expect(count(text)).toBe(encode(text, { disallowedSpecial: new Set() }).length)
  })

  it('loads the encoding once', async () => {
    expect(loadTokenCounter()).toBe(loadTokenCounter())
    expect(await loadTokenCounter()).toBe(await loadTokenCounter())
  })
})

describe('loadTokenEstimator (in-thread, for the CLI)', () => {
  it("answers with the counter's figures", async () => {
    const estimate = await loadTokenEstimator()
    const count = await loadTokenCounter()
    const text = 'Streaming 20,000 tokens into a console.\n'.repeat(50)
    expect(await estimate(text)).toBe(count(text))
    expect(await estimate('')).toBe(0)
  })

  it('is made once', async () => {
    expect(await loadTokenEstimator()).toBe(await loadTokenEstimator())
  })
})
