import { describe, expect, it } from 'vitest'
import {
  estimateMessagesTokens,
  estimateRequestTokens,
  loadTokenEstimator,
} from '../../src/providers/tokens.ts'
import { TOKEN_ESTIMATE_PER_MESSAGE, TOKEN_ESTIMATE_REPLY_PRIMING } from '../../src/defaults.ts'
import type { ChatMessage } from '../../src/engine/index.ts'

describe('loadTokenEstimator', () => {
  it('counts tokens with a real BPE tokenizer', async () => {
    const estimate = await loadTokenEstimator()
    expect(estimate('')).toBe(0)
    expect(estimate('hello world')).toBe(2)
    // A long English paragraph is roughly four characters per token, never one per character.
    const paragraph = 'The quick brown fox jumps over the lazy dog. '.repeat(20)
    const count = estimate(paragraph)
    expect(count).toBeGreaterThan(paragraph.length / 8)
    expect(count).toBeLessThan(paragraph.length / 3)
  })

  it('counts special-token text as text instead of throwing', async () => {
    const estimate = await loadTokenEstimator()
    expect(estimate('before <|endoftext|> after')).toBeGreaterThan(3)
  })

  it('loads the encoding once', async () => {
    expect(loadTokenEstimator()).toBe(loadTokenEstimator())
    expect(await loadTokenEstimator()).toBe(await loadTokenEstimator())
  })
})

describe('estimateMessagesTokens', () => {
  const byWords = (text: string) => (text === '' ? 0 : text.split(' ').length)

  it('adds the per-message overhead and the reply priming to the content', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'one two three' },
    ]
    expect(estimateMessagesTokens(messages, byWords)).toBe(
      2 + 3 + 2 * TOKEN_ESTIMATE_PER_MESSAGE + TOKEN_ESTIMATE_REPLY_PRIMING,
    )
  })

  it('counts tool calls and tool results', () => {
    const messages: ChatMessage[] = [
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'lookup', arguments: 'a b' }] },
      { role: 'tool', toolCallId: 'c', name: 'lookup', content: 'x y z' },
    ]
    expect(estimateMessagesTokens(messages, byWords)).toBe(
      1 + 2 + 1 + 3 + 2 * TOKEN_ESTIMATE_PER_MESSAGE + TOKEN_ESTIMATE_REPLY_PRIMING,
    )
  })

  it('counts tool definitions in a request unless tools are disabled', async () => {
    const estimate = await loadTokenEstimator()
    const request = {
      model: '',
      messages: [{ role: 'user' as const, content: 'hi' }],
      tools: [
        {
          name: 'lookup',
          description: 'Finds orders by status',
          parameters: { type: 'object', properties: { q: { type: 'string' } } },
        },
      ],
    }
    const withTools = estimateRequestTokens(request, estimate)
    const without = estimateRequestTokens({ ...request, toolChoice: 'none' }, estimate)
    expect(without).toBe(estimateMessagesTokens(request.messages, estimate))
    expect(withTools).toBeGreaterThan(without + 10)
  })
})
