import { describe, expect, it } from 'vitest'
import { createDemoProvider, genericDemoText } from '../../src/providers/demo.ts'
import { parseDemoScript, type DemoScript } from '../../src/providers/demoScript.ts'
import { DEMO_CHUNK_SIZE_CHARS, DEMO_DELAY_MS, DEMO_ECHO_MAX_CHARS } from '../../src/defaults.ts'
import { collect, flowError, realClock, recordingClock, userRequest } from './helpers.ts'

function script(partial: Record<string, unknown>): DemoScript {
  return parseDemoScript({ format: 'wardflow.demo-script', version: 1, ...partial })
}

const docExample = {
  format: 'wardflow.demo-script',
  version: 1,
  replies: [
    {
      text: 'Let me look that up.',
      toolCalls: [{ name: 'lookup', arguments: '{"q":"pending orders"}' }],
      usage: { prompt: 120, completion: 30 },
    },
    { text: 'There are no pending orders.' },
  ],
  then: 'repeat-last',
}

describe('parseDemoScript', () => {
  it('accepts the example of the format page and fills defaults', () => {
    const parsed = parseDemoScript(docExample)
    expect(parsed.replies[1]).toEqual({ text: 'There are no pending orders.', toolCalls: [] })
    expect(parseDemoScript({ ...docExample, then: undefined }).then).toBe('repeat-last')
  })

  it('names the JSON path of a wrong field', () => {
    const bad = { ...docExample, replies: [{ text: 'ok' }, { toolCalls: [{ name: 42, arguments: '{}' }] }] }
    const error = (() => {
      try {
        parseDemoScript(bad)
      } catch (e) {
        return e as { code: string; message: string; details: { path: string } }
      }
      throw new Error('expected a failure')
    })()
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toContain('replies[1].toolCalls[0].name')
    expect(error.details.path).toBe('replies[1].toolCalls[0].name')
  })

  it('refuses a misspelt key, a wrong format, an empty reply list and a bad "then"', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...docExample, replies: [{ text: 'x', toolcalls: [] }] }, 'replies[0]'],
      [{ ...docExample, format: 'wardflow.workflow' }, 'format'],
      [{ ...docExample, replies: [] }, 'replies'],
      [{ ...docExample, then: 'loop' }, 'then'],
      [{ ...docExample, replies: [{ text: 'x', chunkSize: 0 }] }, 'replies[0].chunkSize'],
      ['not an object', '(top level)'],
    ]
    for (const [value, path] of cases) {
      const error = await flowError(Promise.resolve().then(() => parseDemoScript(value)))
      expect(error.message).toContain(path)
    }
  })

  it('writes object arguments as JSON text', () => {
    const parsed = script({ replies: [{ toolCalls: [{ name: 'f', arguments: { a: [1] } }] }] })
    expect(parsed.replies[0]?.toolCalls[0]?.arguments).toBe('{"a":[1]}')
  })
})

describe('demo provider with a script', () => {
  it('plays one reply per call, then repeats the last one with fresh tool call ids', async () => {
    const demo = createDemoProvider({
      clock: recordingClock(),
      script: script({
        replies: [
          { text: 'one', toolCalls: [{ name: 'lookup', arguments: '{}' }] },
          { text: 'two', toolCalls: [{ id: 'fixed', name: 'lookup', arguments: '{}' }] },
        ],
      }),
    })
    const first = await collect(demo, userRequest('q'))
    const second = await collect(demo, userRequest('q'))
    const third = await collect(demo, userRequest('q'))
    expect([first.result.text, second.result.text, third.result.text]).toEqual(['one', 'two', 'two'])
    expect(first.result.toolCalls[0]).toEqual({ id: 'call_demo_1_0', name: 'lookup', arguments: '{}' })
    expect(first.result.finishReason).toBe('tool_calls')
    expect(second.result.toolCalls[0]?.id).toBe('fixed')
    expect(third.result.toolCalls[0]?.id).toBe('fixed_3')
  })

  it("fails with DEMO_SCRIPT_ENDED after the last reply when the script says 'stop'", async () => {
    const demo = createDemoProvider({
      clock: recordingClock(),
      script: script({ replies: [{ text: 'only' }], then: 'stop' }),
    })
    await collect(demo, userRequest('q'))
    const error = await flowError(collect(demo, userRequest('q')))
    expect(error.code).toBe('DEMO_SCRIPT_ENDED')
    expect(error.message).toMatch(/1 reply and ends with "stop", and this is call 2/)
  })

  it('streams in chunkSize pieces with delayMs between them through the injected clock', async () => {
    const clock = recordingClock()
    const demo = createDemoProvider({
      clock,
      script: script({ replies: [{ text: 'abcdefgh', chunkSize: 3, delayMs: 40 }] }),
    })
    const { chunks } = await collect(demo, userRequest('q'))
    expect(chunks.map((c) => c.text)).toEqual(['abc', 'def', 'gh'])
    expect(clock.sleeps).toEqual([40, 40])
  })

  it('uses the default chunk size and delay, and streams reasoning first', async () => {
    const clock = recordingClock()
    const text = 'x'.repeat(DEMO_CHUNK_SIZE_CHARS * 2)
    const demo = createDemoProvider({ clock, script: script({ replies: [{ reasoning: 'why', text }] }) })
    const { chunks, result } = await collect(demo, userRequest('q'))
    expect(chunks.map((c) => c.type)).toEqual(['reasoning', 'text', 'text'])
    expect(clock.sleeps).toEqual([DEMO_DELAY_MS, DEMO_DELAY_MS])
    expect(result.reasoning).toBe('why')
  })

  it('sends the whole text at once without delays when streaming is off', async () => {
    const clock = recordingClock()
    const demo = createDemoProvider({ clock, script: script({ replies: [{ text: 'abcdefghijkl' }] }) })
    const { chunks } = await collect(demo, userRequest('q', { stream: false }))
    expect(chunks).toEqual([{ type: 'text', text: 'abcdefghijkl' }])
    expect(clock.sleeps).toEqual([])
  })

  it('never cuts an emoji in half', async () => {
    const demo = createDemoProvider({
      clock: recordingClock(),
      script: script({ replies: [{ text: '😀😀😀', chunkSize: 1 }] }),
    })
    const { chunks } = await collect(demo, userRequest('q'))
    expect(chunks.map((c) => c.text)).toEqual(['😀', '😀', '😀'])
  })

  it('reports usage only when the reply has it', async () => {
    const demo = createDemoProvider({
      clock: recordingClock(),
      script: script({ replies: [{ text: 'a', usage: { prompt: 120, completion: 30 } }, { text: 'b' }] }),
    })
    expect((await collect(demo, userRequest('q'))).result.usage).toEqual({ prompt: 120, completion: 30 })
    expect((await collect(demo, userRequest('q'))).result.usage).toBeUndefined()
  })

  it('stops with CANCELLED during a delay when aborted', async () => {
    const demo = createDemoProvider({
      clock: realClock,
      script: script({ replies: [{ text: 'abcdef', chunkSize: 1, delayMs: 5_000 }] }),
    })
    const controller = new AbortController()
    const started = Date.now()
    const error = await flowError(
      (async () => {
        for await (const chunk of demo.chat(userRequest('q'), controller.signal)) {
          if (chunk.type === 'text') controller.abort()
        }
      })(),
    )
    expect(error.code).toBe('CANCELLED')
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it('reports the model the node asked for, or "demo"', async () => {
    const demo = createDemoProvider({ clock: recordingClock(), script: script({ replies: [{ text: 'a' }] }) })
    expect((await collect(demo, userRequest('q', { model: 'gpt-x' }))).result.model).toBe('gpt-x')
    expect((await collect(demo, userRequest('q'))).result.model).toBe('demo')
  })
})

describe('demo provider without a script', () => {
  it('says it is the demo and quotes the last user message, the same way every time', async () => {
    const demo = createDemoProvider({ clock: recordingClock() })
    const request = userRequest('Summarise   the\nquarterly report')
    const first = await collect(demo, request)
    const second = await collect(demo, request)
    expect(first.result.text).toContain('offline demo provider')
    expect(first.result.text).toContain('"Summarise the quarterly report"')
    expect(first.result.text).toContain('4 words')
    expect(second.result.text).toBe(first.result.text)
    expect(first.text).toBe(first.result.text)
  })

  it('never calls tools, even when tools are offered', async () => {
    const demo = createDemoProvider({ clock: recordingClock() })
    const tools = [{ name: 'lookup', description: 'd', parameters: {} }]
    const { result } = await collect(demo, userRequest('use the tool', { tools }))
    expect(result.toolCalls).toEqual([])
    expect(result.finishReason).toBe('stop')
    expect(result.usage).toBeUndefined()
  })

  it('shortens a long message and handles an empty one', () => {
    const long = genericDemoText(userRequest('word '.repeat(200)))
    expect(long).toContain('…')
    expect(long.length).toBeLessThan(DEMO_ECHO_MAX_CHARS + 200)
    expect(genericDemoText({ model: '', messages: [] })).toContain('no model was called')
  })
})

describe('demo script replies with `when`', () => {
  it('answers a call whose message contains `when` with that reply, the others in order', async () => {
    const demo = createDemoProvider({
      clock: recordingClock(),
      script: script({
        replies: [
          { when: 'kettle', text: 'about the kettle' },
          { text: 'first' },
          { when: 'lamp', text: 'about the lamp' },
          { text: 'second' },
        ],
      }),
    })
    const texts: string[] = []
    for (const q of ['a lamp review', 'something', 'the kettle', 'more', 'more', 'lamp again'])
      texts.push((await collect(demo, userRequest(q))).text)
    expect(texts).toEqual([
      'about the lamp',
      'first',
      'about the kettle',
      'second',
      'second',
      'about the lamp',
    ])
  })

  it('falls back to the generic reply when every reply has a `when` and none matches', async () => {
    const demo = createDemoProvider({
      clock: recordingClock(),
      script: script({ replies: [{ when: 'kettle', text: 'k' }] }),
    })
    expect((await collect(demo, userRequest('a lamp'))).text).toMatch(/^\[Demo provider\]/)
  })
})
