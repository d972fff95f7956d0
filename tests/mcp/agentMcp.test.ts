/**
 * Agent `mcp` tools in-process against real MCP servers on loopback: server-everything over
 * Streamable HTTP, and the small test server (guard, watchdog, failing, dying, destructive).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DECLINED_OBSERVATION,
  defaultProtection,
  runFlow,
  type RunEvent,
  type McpPort,
} from '../../src/engine/run.ts'
import { createMcpHub } from '../../src/mcp/hub.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { systemClock } from '../../src/platform/systemClock.ts'
import { collect, flow, ofType, testContext } from '../support/flowBuilders.ts'
import { startEverything, startTestServer } from '../support/mcpServers.ts'
import { scriptedProvider, type ScriptStep } from '../support/scriptedProvider.ts'
import { consoleOf, outputOf } from '../nodes/runNodes.ts'

let everything: Awaited<ReturnType<typeof startEverything>>
let small: Awaited<ReturnType<typeof startTestServer>>

beforeAll(async () => {
  ;[everything, small] = await Promise.all([startEverything(4350), startTestServer(0)])
}, 30_000)
afterAll(async () => {
  await Promise.all([everything?.close(), small?.close()])
})

interface Call {
  name: string
  args: unknown
}

function hub(): McpPort {
  return createMcpHub({
    servers: [
      { id: 'everything', transport: 'http', url: everything.url },
      { id: 'small', name: 'Small test server', transport: 'http', url: small.url },
    ],
  })
}

async function runAgent(
  tools: Array<Record<string, unknown>>,
  turns: Call[][],
  options: {
    protection?: Partial<ReturnType<typeof defaultProtection>>
    stopAfterMs?: number
    mcp?: McpPort
  } = {},
) {
  const steps: ScriptStep[] = [
    ...turns.map((calls) => ({
      toolCalls: calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.args) })),
    })),
    { text: 'done' },
  ]
  const provider = scriptedProvider(steps)
  const mcp = options.mcp ?? hub()
  const { ctx, controller } = testContext({
    provider,
    mcp,
    protection: { ...defaultProtection(), ...options.protection },
  })
  ctx.clock = systemClock
  const doc = flow().node('agent', 'agent', { prompt: 'Go', tools }).build()
  if (options.stopAfterMs !== undefined) setTimeout(() => controller.abort(), options.stopAfterMs)
  const events: RunEvent[] = await collect(runFlow(doc, engineRegistry, ctx))
  await mcp.close()
  const calls = (outputOf(events, 'agent')?.['toolCalls'] ?? []) as Array<{
    name: string
    observation: string
  }>
  return { events, calls, provider, console: consoleOf(events, 'agent', 'log') }
}

describe('Agent mcp tools against server-everything (Streamable HTTP)', { timeout: 30_000 }, () => {
  it('offers the server tools with their own names, descriptions and schemas, and calls echo', async () => {
    const { calls, provider, events } = await runAgent(
      [{ kind: 'mcp', server: 'everything', include: ['echo', 'get-sum'] }],
      [[{ name: 'echo', args: { message: 'hello from the agent' } }]],
    )
    expect(ofType(events, 'runFinish')[0]?.status).toBe('success')
    expect(calls).toEqual([
      expect.objectContaining({ name: 'echo', observation: 'Echo: hello from the agent' }),
    ])
    const offered = provider.requests[0]?.tools ?? []
    expect(offered.map((t) => t.name)).toEqual(['echo', 'get-sum'])
    expect(offered[0]?.description).toBe('Echoes back the input string')
    expect(offered[0]?.parameters).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
    })
  })

  it("many calls on one run's signal leave no abort listener behind on it", async () => {
    const mcp = hub()
    const run = new AbortController()
    // Count the abort listeners live on the run's signal by watching add and remove.
    const live = new Set<unknown>()
    const add = run.signal.addEventListener.bind(run.signal)
    const remove = run.signal.removeEventListener.bind(run.signal)
    run.signal.addEventListener = (type: string, listener: unknown, options?: unknown) => {
      if (type === 'abort') live.add(listener)
      add(type, listener as EventListener, options as AddEventListenerOptions)
    }
    run.signal.removeEventListener = (type: string, listener: unknown, options?: unknown) => {
      if (type === 'abort') live.delete(listener)
      remove(type, listener as EventListener, options as EventListenerOptions)
    }
    for (let i = 0; i < 30; i++) {
      const result = await mcp.callTool(
        'everything',
        'echo',
        { message: `m${i}` },
        { signal: run.signal, timeoutMs: 5000 },
      )
      expect(result.text).toBe(`Echo: m${i}`)
    }
    expect(live.size).toBe(0)
    await mcp.close()
  })

  it('all tools when include is absent', async () => {
    const { provider } = await runAgent([{ kind: 'mcp', server: 'everything' }], [])
    const names = (provider.requests[0]?.tools ?? []).map((t) => t.name)
    expect(names).toContain('echo')
    expect(names).toContain('trigger-long-running-operation')
    expect(names.length).toBeGreaterThan(5)
  })

  it('arguments that do not fit the schema never reach the server', async () => {
    const { calls } = await runAgent(
      [{ kind: 'mcp', server: 'everything', include: ['echo'] }],
      [[{ name: 'echo', args: { text: 42 } }]],
    )
    expect(calls[0]?.observation).toMatch(/^Observation: Error - invalid arguments for tool "echo"/i)
    expect(calls[0]?.observation).toContain('message')
  })

  it('progress notifications show in the node console', async () => {
    const { calls, console } = await runAgent(
      [{ kind: 'mcp', server: 'everything', include: ['trigger-long-running-operation'] }],
      [[{ name: 'trigger-long-running-operation', args: { duration: 0.3, steps: 3 } }]],
    )
    expect(calls[0]?.observation).toBe('Long running operation completed. Duration: 0.3 seconds, Steps: 3.')
    expect(console).toContain('[MCP progress] trigger-long-running-operation: 1/3')
    expect(console).toContain('[MCP progress] trigger-long-running-operation: 3/3')
  })

  it('Stop cancels a long call: the run ends at once, long before the tool would', async () => {
    const started = Date.now()
    const { events } = await runAgent(
      [{ kind: 'mcp', server: 'everything', include: ['trigger-long-running-operation'] }],
      [[{ name: 'trigger-long-running-operation', args: { duration: 20, steps: 20 } }]],
      { stopAfterMs: 800 },
    )
    expect(ofType(events, 'runFinish')[0]?.status).toBe('cancelled')
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})

describe('Agent mcp tools against the small test server', { timeout: 30_000 }, () => {
  it('a poll whose result changes is not tripped; an unchanged one is, at the 3rd call', async () => {
    const poll = { name: 'poll_job', args: { id: 'j1' } }
    const same = { name: 'same_result', args: { q: 'orders' } }
    const polled = await runAgent([{ kind: 'mcp', server: 'small' }], [[poll], [poll], [poll], [poll]])
    expect(polled.calls.map((c) => c.observation)).toEqual([
      'job j1: 30%',
      'job j1: 60%',
      'job j1: 90%',
      'job j1: 100%',
    ])
    expect(ofType(polled.events, 'guard').filter((g) => g.level === 'trip')).toEqual([])

    const stuck = await runAgent([{ kind: 'mcp', server: 'small' }], [[same], [same], [same], [same]])
    expect(stuck.calls.map((c) => c.observation)).toEqual([
      '[]',
      '[]',
      expect.stringMatching(/^Observation: Execution halted by Deadlock Breaker \(3 identical calls\)/),
    ])
    expect(ofType(stuck.events, 'guard').find((g) => g.level === 'trip')).toMatchObject({
      layer: 'loop',
      tool: 'same_result',
    })
    expect(outputOf(stuck.events, 'agent')?.['stopReason']).toBe('deadlock')
  })

  it('a failing tool returns its error to the model', async () => {
    const { calls } = await runAgent(
      [{ kind: 'mcp', server: 'small', include: ['fail'] }],
      [[{ name: 'fail', args: {} }]],
    )
    expect(calls[0]?.observation).toBe(
      'Observation: Error executing tool "fail": disk quota exceeded on the test server',
    )
  })

  it('a slow tool is cut by the watchdog, and the server sees the call cancelled', async () => {
    small.state.slowAborted = false
    const { calls, events } = await runAgent(
      [{ kind: 'mcp', server: 'small', include: ['slow'] }],
      [[{ name: 'slow', args: { ms: 10_000 } }]],
      { protection: { toolTimeoutMs: 400 } },
    )
    expect(calls[0]?.observation).toMatch(/^Observation: Error executing tool "slow": .*within 400 ms/)
    expect(ofType(events, 'guard').find((g) => g.layer === 'watchdog')).toMatchObject({
      level: 'trip',
      tool: 'slow',
    })
    await expect.poll(() => small.state.slowAborted, { timeout: 2_000 }).toBe(true)
  })

  it('Stop cancels the call on the server (notifications/cancelled)', async () => {
    small.state.slowAborted = false
    small.state.slowStarted = false
    const { events } = await runAgent(
      [{ kind: 'mcp', server: 'small', include: ['slow'] }],
      [[{ name: 'slow', args: { ms: 10_000 } }]],
      { stopAfterMs: 600 },
    )
    expect(small.state.slowStarted).toBe(true)
    expect(ofType(events, 'runFinish')[0]?.status).toBe('cancelled')
    await expect.poll(() => small.state.slowAborted, { timeout: 2_000 }).toBe(true)
  })

  it('a reply over the size limit is cut with a line saying so', async () => {
    const { calls } = await runAgent(
      [{ kind: 'mcp', server: 'small', include: ['big'] }],
      [[{ name: 'big', args: { chars: 50_000 } }]],
    )
    const text = calls[0]?.observation ?? ''
    expect(text.startsWith(`${'x'.repeat(16_000)}\n[Reply cut: showing 16000 of 50000 characters`)).toBe(true)
    expect(text).not.toContain('Observation truncated')
  })

  it('descriptions stay text; destructiveHint makes the tool ask for approval by default', async () => {
    const mcp = hub()
    const tools = await mcp.listTools('small', new AbortController().signal)
    await mcp.close()
    const del = tools.find((t) => t.name === 'delete_file')
    expect(del?.description).toBe('Deletes <path>. <b>Careful</b>.')
    const { buildMcpTools } = await import('../../src/nodes/agent/mcpTools.ts')
    const { ctx } = testContext({ mcp: hub() })
    const built = await buildMcpTools(
      { ctx, signal: ctx.signal, emit: { chunk: () => undefined }, node: { id: 'a' } } as never,
      { ...defaultProtection(), maxIdenticalCalls: 10 } as never,
      [
        {
          kind: 'mcp',
          server: 'small',
          include: ['delete_file', 'echo_missing'].slice(0, 1),
          name: '',
          description: '',
          parameters: {},
        },
      ],
      new Set(),
    )
    expect(built.map((t) => [t.spec.name, t.approvalDefault])).toEqual([['delete_file', 'ask']])
    await ctx.mcp?.close()
  })

  it('a destructive tool asks before it runs: with no one to ask, the call is declined', async () => {
    const { calls, events } = await runAgent(
      [{ kind: 'mcp', server: 'small', include: ['delete_file'] }],
      [[{ name: 'delete_file', args: { path: 'x' } }]],
    )
    expect(calls[0]?.observation).toBe(DECLINED_OBSERVATION)
    expect(
      events.filter((e) => e.type === 'approvalDecision').map((e) => e.type === 'approvalDecision' && e.by),
    ).toEqual(['policy'])
  })

  it('the server dying mid-call fails the call with a message naming the server', async () => {
    const dying = await startTestServer(0)
    const mcp = createMcpHub({ servers: [{ id: 'dies', transport: 'http', url: dying.url }] })
    const { calls, events } = await runAgent(
      [{ kind: 'mcp', server: 'dies', include: ['die'] }],
      [[{ name: 'die', args: {} }]],
      { mcp },
    )
    expect(calls[0]?.observation).toMatch(
      /^Observation: Error executing tool "die": MCP server "dies" failed during "die"/,
    )
    expect(ofType(events, 'runFinish')[0]?.status).toBe('success')
  })

  it('an unreachable server fails the Agent node, naming it', async () => {
    const mcp = createMcpHub({
      servers: [{ id: 'gone', transport: 'http', url: 'http://127.0.0.1:4359/mcp' }],
    })
    const { events } = await runAgent([{ kind: 'mcp', server: 'gone' }], [], { mcp })
    const failed = ofType(events, 'nodeError')[0]
    expect(failed?.code).toBe('MCP_UNREACHABLE')
    expect(failed?.message).toBe(
      'MCP server "gone" could not be used at http://127.0.0.1:4359/mcp: connection refused (is the server running?).',
    )
  })

  it('include naming a tool the server lacks fails the node, listing what it offers', async () => {
    const { events } = await runAgent([{ kind: 'mcp', server: 'small', include: ['nope'] }], [])
    expect(ofType(events, 'nodeError')[0]?.message).toMatch(
      /^MCP server "small" has no tool "nope" \(it offers: poll_job, /,
    )
  })
})
