/** The agent loop against a scripted provider: answers, message order, the loop guard in the loop. */
import { describe, expect, it } from 'vitest'
import { AGENT_MAX_TOOL_CALLS_PER_TURN } from '../../../src/defaults.ts'
import { FlowError } from '../../../src/engine/run.ts'
import { call, expectAllRequestsWellFormed, harness, tool } from './support/loopHarness.ts'

const HINT_TEXT =
  '[System Hint: You invoked tool "query_db" twice with identical parameters. If polling or awaiting state change, continue; otherwise synthesize your final answer.]'
const TRIP_TEXT =
  '[Agent Deadlock Protection] Tripped: 3 consecutive identical calls to "query_db". Terminating loop to prevent token waste.'
const HALTED =
  'Observation: Execution halted by Deadlock Breaker (3 identical calls). Please synthesize conclusion immediately.'

describe('agent loop: a well-behaved agent', () => {
  it('runs two different tools and returns the answer', async () => {
    const weather = tool('get_weather', (args) => `sunny in ${(args as { city: string }).city}`)
    const time = tool('get_time', () => '14:00')
    const h = harness(
      [
        { text: 'Checking the weather.', toolCalls: [call('get_weather', { city: 'Paris' })] },
        { toolCalls: [call('get_time', { city: 'Paris' })] },
        { text: 'It is sunny in Paris at 14:00.' },
      ],
      { tools: [weather, time] },
    )
    const result = await h.run()
    expect(result).toMatchObject({
      response: 'It is sunny in Paris at 14:00.',
      iterations: 3,
      stopReason: 'answer',
      status: 'success',
      toolCalls: [
        { name: 'get_weather', args: '{"city":"Paris"}', observation: 'sunny in Paris' },
        { name: 'get_time', args: '{"city":"Paris"}', observation: '14:00' },
      ],
    })
    expect(weather.runs).toEqual([{ city: 'Paris' }])
    expect(h.alerts).toEqual([])
    const first = h.provider.requests[0]
    expect(first?.toolChoice).toBe('auto')
    expect(first?.tools?.map((t) => t.name)).toEqual(['get_weather', 'get_time'])
    expect(first?.messages).toEqual([
      { role: 'system', content: 'You are a careful agent.' },
      { role: 'user', content: 'How many orders are pending?' },
    ])
    expectAllRequestsWellFormed(h.provider)
  })

  it('streams text and reasoning into the console and logs each tool call', async () => {
    const h = harness(
      [{ reasoning: 'think', text: 'look', toolCalls: [call('t', { a: 1 })] }, { text: 'done' }],
      { tools: [tool('t', () => 'result')] },
    )
    await h.run()
    const text = (channel: string) =>
      h.console
        .filter((c) => c.channel === channel)
        .map((c) => c.text)
        .join('')
    expect(text('output')).toBe('lookdone')
    expect(text('reasoning')).toBe('think')
    expect(text('log')).toContain('→ t {"a":1}')
    expect(text('log')).toContain('← result')
  })

  it('sends no tools and no tool choice when the agent has no tools', async () => {
    const h = harness([{ text: 'plain answer' }])
    expect((await h.run()).response).toBe('plain answer')
    expect(h.provider.requests[0]?.tools).toBeUndefined()
    expect(h.provider.requests[0]?.toolChoice).toBeUndefined()
  })

  it('rejects with the provider error when a model call fails', async () => {
    const h = harness([{ error: new FlowError('PROVIDER_SERVER', 'HTTP 500') }])
    await expect(h.run()).rejects.toMatchObject({ code: 'PROVIDER_SERVER' })
  })
})

describe('agent loop: message order and tool-call ids', () => {
  it('gives every id exactly one result, directly after its assistant message, with hints after them', async () => {
    const a = tool('query_db', () => '[]')
    const b = tool('other', () => 'ok')
    const h = harness(
      [
        { toolCalls: [call('query_db', { status: 'pending' }), call('other', { x: 1 })] },
        {
          toolCalls: [
            call('other', { x: 2 }),
            call('query_db', { status: 'pending' }),
            call('query_db', { status: 'pending' }),
            call('other', { x: 3 }),
          ],
        },
        { text: 'none pending' },
      ],
      { tools: [a, b] },
    )
    await h.run()
    expectAllRequestsWellFormed(h.provider)
    const messages = h.provider.requests[2]?.messages ?? []
    // The hint of the 2nd turn (query_db twice in a row) comes after all four results.
    expect(messages.slice(-6).map((m) => m.role)).toEqual([
      'assistant',
      'tool',
      'tool',
      'tool',
      'tool',
      'user',
    ])
    expect(messages.at(-1)).toEqual({ role: 'user', content: HINT_TEXT })
    expect(h.alerts).toEqual([
      { layer: 'loop', level: 'hint', detector: 'repeat', tool: 'query_db', count: 2, message: HINT_TEXT },
    ])
  })

  it('replaces missing and repeated ids with unique ones', async () => {
    const t = tool('t', (args) => JSON.stringify(args))
    const h = harness(
      [
        { toolCalls: [call('t', { n: 1 }, 'same'), call('t', { n: 2 }, 'same'), call('t', { n: 3 }, '')] },
        { toolCalls: [call('t', { n: 4 }, 'same')] },
        { text: 'ok' },
      ],
      { tools: [t] },
    )
    await h.run()
    expectAllRequestsWellFormed(h.provider)
    const ids = (h.provider.requests[2]?.messages ?? []).flatMap((m) =>
      m.role === 'tool' ? [m.toolCallId] : [],
    )
    expect(new Set(ids).size).toBe(4)
    expect(ids[0]).toBe('same')
  })

  it(`answers calls beyond ${AGENT_MAX_TOOL_CALLS_PER_TURN} in one turn with a skipped result`, async () => {
    const t = tool('t', () => 'ok')
    const calls = Array.from({ length: AGENT_MAX_TOOL_CALLS_PER_TURN + 2 }, (_, i) => call('t', { i }))
    const h = harness([{ toolCalls: calls }, { text: 'done' }], { tools: [t] })
    const result = await h.run()
    expect(t.runs).toHaveLength(AGENT_MAX_TOOL_CALLS_PER_TURN)
    expect(result.toolCalls.at(-1)?.observation).toMatch(/^Observation: Skipped: at most 16 tool calls/)
    expectAllRequestsWellFormed(h.provider)
  })
})

describe('agent loop: the deadlock breaker', () => {
  it('hints after the 2nd identical call, trips on the 3rd without running it, then finalizes with tools disabled', async () => {
    const query = tool('query_db', () => '[]')
    const h = harness(
      [
        { toolCalls: [call('query_db', { status: 'pending' })] },
        { toolCalls: [call('query_db', { status: 'pending' })] },
        { toolCalls: [call('query_db', { status: 'pending' })] },
        { text: 'There are no pending orders.' },
      ],
      { tools: [query] },
    )
    const result = await h.run()
    expect(query.runs).toHaveLength(2)
    expect(result).toMatchObject({
      stopReason: 'deadlock',
      status: 'stopped',
      iterations: 3,
      response: 'There are no pending orders.',
    })
    expect(result.toolCalls.map((c) => c.observation)).toEqual(['[]', '[]', HALTED])
    expect(h.alerts).toEqual([
      { layer: 'loop', level: 'hint', detector: 'repeat', tool: 'query_db', count: 2, message: HINT_TEXT },
      { layer: 'loop', level: 'trip', detector: 'repeat', tool: 'query_db', count: 3, message: TRIP_TEXT },
    ])
    const finalize = h.provider.requests[3]
    expect(finalize?.toolChoice).toBe('none')
    expect(finalize?.tools).toBeUndefined()
    expect(h.provider.requests).toHaveLength(4)
    // The hint was sent after the tool result of the 2nd turn.
    expect(h.provider.requests[2]?.messages.at(-1)).toEqual({ role: 'user', content: HINT_TEXT })
    expectAllRequestsWellFormed(h.provider)
  })

  it('counts a streak inside one turn and skips the rest of the turn after a trip', async () => {
    const query = tool('query_db', () => '[]')
    const other = tool('other', () => 'never')
    const h = harness(
      [
        {
          toolCalls: [
            call('query_db', '{"status":"pending"}'),
            call('query_db', '{ "status" : "pending" }'),
            call('query_db', '{"status":"pending"}'),
            call('other', {}),
            call('other', { x: 1 }),
          ],
        },
        { text: 'Nothing pending.' },
      ],
      { tools: [query, other] },
    )
    const result = await h.run()
    expect(query.runs).toHaveLength(2)
    expect(other.runs).toHaveLength(0)
    expect(result.stopReason).toBe('deadlock')
    const observations = result.toolCalls.map((c) => c.observation)
    expect(observations.slice(0, 3)).toEqual(['[]', '[]', HALTED])
    expect(observations.slice(3).every((o) => o.startsWith('Observation: Skipped'))).toBe(true)
    // The hint of that turn still follows all five results, before the finalize instruction.
    const finalize = h.provider.requests[1]?.messages ?? []
    expect(finalize.at(-1)?.role).toBe('user')
    expect(finalize.at(-1)?.content.startsWith(HINT_TEXT)).toBe(true)
    expectAllRequestsWellFormed(h.provider)
  })

  it('ends without a finalize call when finalizeAfterStop is off, keeping the partial text', async () => {
    const h = harness(
      [
        { text: 'Looking.', toolCalls: [call('q')] },
        { text: 'Again.', toolCalls: [call('q')] },
        { toolCalls: [call('q')] },
      ],
      { tools: [tool('q', () => '[]')], protection: { finalizeAfterStop: false } },
    )
    const result = await h.run()
    expect(h.provider.requests).toHaveLength(3)
    expect(result).toMatchObject({
      stopReason: 'deadlock',
      status: 'stopped',
      response: 'Looking.\n\nAgain.',
    })
  })

  it('trips an A-B-A-B cycle with the cycle detector', async () => {
    const h = harness(
      [
        { toolCalls: [call('open_file', { f: 'x.ts' })] },
        { toolCalls: [call('edit_file', { f: 'x.ts', v: 1 })] },
        { toolCalls: [call('open_file', { f: 'x.ts' })] },
        { toolCalls: [call('edit_file', { v: 1, f: 'x.ts' })] },
        { toolCalls: [call('open_file', { f: 'x.ts' })] },
        { toolCalls: [call('edit_file', { f: 'x.ts', v: 1 })] },
        { text: 'The edit does not fix TS2322.' },
      ],
      { tools: [tool('open_file', () => 'error TS2322'), tool('edit_file', () => 'ok')] },
    )
    const result = await h.run()
    expect(result.stopReason).toBe('deadlock')
    expect(h.alerts.map((a) => `${a.layer}:${a.level}:${a.detector}`)).toEqual([
      'loop:hint:cycle',
      'loop:trip:cycle',
    ])
    expect(h.alerts[1]?.message).toContain('"open_file" -> "edit_file"')
    expect(result.response).toBe('The edit does not fix TS2322.')
  })

  it('lets identical calls run when loop detection is off, until the iteration cap', async () => {
    const q = tool('q', () => '[]')
    const h = harness([{ toolCalls: [call('q')] }], {
      tools: [q],
      protection: { loopDetectionEnabled: false, maxIterations: 5 },
    })
    const result = await h.run()
    expect(q.runs).toHaveLength(5)
    expect(result.stopReason).toBe('iterations')
  })

  it('uses the node threshold: loopDetectionThreshold 5 trips on the 5th identical call', async () => {
    const q = tool('q', () => '[]')
    const h = harness([{ toolCalls: [call('q')] }], { tools: [q], protection: { loopDetectionThreshold: 5 } })
    const result = await h.run()
    expect(q.runs).toHaveLength(4)
    expect(h.alerts.at(-1)).toMatchObject({ layer: 'loop', level: 'trip', count: 5 })
    expect(result.stopReason).toBe('deadlock')
  })
})
