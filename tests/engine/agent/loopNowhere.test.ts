/**
 * The agent loop's newer guards (docs/guard.md): a streamed reply that degenerates into
 * repeating itself gets one nudge, then trips; turns with neither text nor tool calls (or
 * reasoning only) get one nudge after three, then a tools-disabled final answer; tool-less turns
 * that do not end the loop count as a monologue; a cycle whose hinted call's result changed is
 * progress and gets no hint.
 */
import { describe, expect, it } from 'vitest'
import type { ChatChunk, ChatRequest, LlmProvider } from '../../../src/engine/index.ts'
import { call, expectAllRequestsWellFormed, harness, tool } from './support/loopHarness.ts'

const LOOPING = `Let me think about this. ${'I need to check the orders again before I answer. '.repeat(120)}`

/** Wraps the harness provider to count what it streamed and see whether the stream was closed early. */
function watched(provider: LlmProvider) {
  const seen = { textChars: 0, closedEarly: 0 }
  const wrapper: LlmProvider = {
    id: provider.id,
    async *chat(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatChunk> {
      let done = false
      try {
        for await (const chunk of provider.chat(request, signal)) {
          if (chunk.type === 'text') seen.textChars += chunk.text.length
          if (chunk.type === 'done') done = true
          yield chunk
        }
      } finally {
        if (!done) seen.closedEarly++
      }
    },
  }
  return { wrapper, seen }
}

describe('degenerate text in an agent', () => {
  it('nudges once, then trips on the next degenerate reply, keeping the text so far', async () => {
    const h = harness([
      { text: LOOPING, chunkSize: 16 },
      { text: LOOPING, chunkSize: 16 },
    ])
    const { wrapper, seen } = watched(h.provider)
    h.params.provider = wrapper
    const result = await h.run()
    expect(h.alerts.map((a) => [a.layer, a.level, a.detector])).toEqual([
      ['loop', 'hint', 'content'],
      ['loop', 'trip', 'content'],
    ])
    expect(h.alerts[0]?.message).toMatch(/^\[System Hint: Your last reply kept repeating the same text \("/)
    expect(h.alerts[1]?.message).toMatch(/^\[Degenerate Text Protection\] Tripped: the reply repeated "/)
    expect(result).toMatchObject({ stopReason: 'degenerate', status: 'stopped', iterations: 2 })
    expect(seen.closedEarly, 'both streams were closed before their end').toBe(2)
    expect(seen.textChars).toBeLessThan(LOOPING.length)
    expect(result.response.startsWith('Let me think about this. I need to check')).toBe(true)
    // The model saw its cut reply, then the nudge, as the last two messages of the second call.
    const second = h.provider.requests[1]?.messages ?? []
    expect(second.at(-2)).toMatchObject({ role: 'assistant' })
    expect(second.at(-1)).toEqual({ role: 'user', content: h.alerts[0]?.message })
    expect(h.provider.requests).toHaveLength(2) // no finalize call after a degenerate stop
    expectAllRequestsWellFormed(h.provider)
  })

  it('goes on normally when the model stops repeating after the nudge', async () => {
    const h = harness([{ text: LOOPING }, { text: 'There are 3 pending orders.' }])
    const result = await h.run()
    expect(result).toMatchObject({
      stopReason: 'answer',
      status: 'success',
      response: 'There are 3 pending orders.',
    })
    expect(h.alerts.map((a) => a.level)).toEqual(['hint'])
  })

  it('lets a repeating reply through when the guard is off', async () => {
    const h = harness([{ text: LOOPING }], { protection: { textLoopDetection: false } })
    const result = await h.run()
    expect(h.alerts).toEqual([])
    expect(result).toMatchObject({ stopReason: 'answer', response: LOOPING })
  })
})

describe('turns that go nowhere', () => {
  it('nudges after three empty or reasoning-only replies, then asks for a tools-disabled answer', async () => {
    const h = harness(
      [
        { text: '' },
        { text: '', reasoning: 'Hmm.' },
        { text: '   ' },
        { text: '' },
        { text: 'I could not find the orders.' },
      ],
      { tools: [tool('query_orders', () => '[]')] },
    )
    const result = await h.run()
    expect(h.alerts.map((a) => [a.level, a.detector, a.count])).toEqual([
      ['hint', 'empty', 3],
      ['trip', 'empty', 4],
    ])
    expect(h.alerts[0]?.message).toBe(
      '[System Hint: Your last 3 replies had neither text nor tool calls. Call a tool or write your final answer.]',
    )
    expect(result).toMatchObject({
      stopReason: 'stalled',
      status: 'stopped',
      response: 'I could not find the orders.',
    })
    const requests = h.provider.requests
    expect(requests).toHaveLength(5)
    expect(requests[4]?.toolChoice).toBe('none')
    expect(requests[4]?.tools).toBeUndefined()
    // The nudge went to the model with the 4th call, merged into the user message (no empty assistant turns).
    expect(requests[3]?.messages.at(-1)?.content).toContain(h.alerts[0]?.message)
    expect(requests[3]?.messages.filter((m) => m.role === 'assistant')).toEqual([])
    expectAllRequestsWellFormed(h.provider)
  })

  it('starts counting again after a reply that calls a tool', async () => {
    const h = harness(
      [
        { text: '' },
        { text: '' },
        { toolCalls: [call('query_orders')] },
        { text: '' },
        { text: '' },
        { text: '3 orders.' },
      ],
      { tools: [tool('query_orders', () => '[1,2,3]')] },
    )
    const result = await h.run()
    expect(h.alerts).toEqual([])
    expect(result).toMatchObject({ stopReason: 'answer', response: '3 orders.' })
  })

  it('calls tool-less replies that do not end the loop a monologue: nudge at the third, stop at the fourth', async () => {
    const h = harness([
      { text: LOOPING },
      { text: '' },
      { text: '' },
      { text: '' },
      { text: 'Final: none pending.' },
    ])
    const result = await h.run()
    expect(h.alerts.map((a) => [a.level, a.detector])).toEqual([
      ['hint', 'content'],
      ['hint', 'monologue'],
      ['trip', 'monologue'],
    ])
    expect(h.alerts[2]?.message).toBe(
      '[Agent Monologue] 4 replies in a row called no tool and gave no answer. Asking for a final answer without tools.',
    )
    expect(result).toMatchObject({ stopReason: 'stalled', response: 'Final: none pending.' })
  })
})

describe('cycles that make progress', () => {
  const A = call('open_file', { f: 'x.ts' })
  const B = call('run_tests', {})

  it('gives no cycle hint when the hinted call returned something new', async () => {
    let runs = 0
    const h = harness(
      [
        { toolCalls: [A] },
        { toolCalls: [B] },
        { toolCalls: [A] },
        { toolCalls: [B] },
        { text: 'Tests pass now.' },
      ],
      {
        tools: [
          tool('open_file', () => 'source'),
          tool('run_tests', () => (++runs < 2 ? '1 failing' : 'all passing')),
        ],
      },
    )
    await h.run()
    expect(h.alerts).toEqual([])
  })

  it('still hints when every position returned the same result', async () => {
    const h = harness(
      [
        { toolCalls: [A] },
        { toolCalls: [B] },
        { toolCalls: [A] },
        { toolCalls: [B] },
        { text: 'Still failing.' },
      ],
      { tools: [tool('open_file', () => 'source'), tool('run_tests', () => '1 failing')] },
    )
    await h.run()
    expect(h.alerts.map((a) => [a.level, a.detector])).toEqual([['hint', 'cycle']])
  })
})
