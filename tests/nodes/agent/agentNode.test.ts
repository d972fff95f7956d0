/** The Agent node inside real flow runs: tools of every kind, alerts, stops and inheritance. */
import { describe, expect, it } from 'vitest'
import { defaultProtection, type FlowDocument, type RunEvent } from '../../../src/engine/run.ts'
import { fakeCodeRunner } from '../../support/fakeCodeRunner.ts'
import { flow, ofType, testContext } from '../../support/flowBuilders.ts'
import { ManualClock } from '../../support/manualClock.ts'
import { scriptedProvider, type ScriptStep } from '../../support/scriptedProvider.ts'
import { consoleOf, outputOf, runWithClock } from '../runNodes.ts'

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) })
const queryTool = {
  name: 'query_db',
  description: 'Query the orders table',
  parameters: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
  kind: 'code',
  code: 'return []',
}

function agentFlow(config: Record<string, unknown>): FlowDocument {
  return flow()
    .node('in', 'input', { values: { q: 'pending orders' } })
    .node('agent', 'agent', { prompt: 'How many {{in.q}} are there?', tools: [queryTool], ...config })
    .node('out', 'output', { values: { answer: '{{agent.response}}', why: '{{agent.stopReason}}' } })
    .chain('in', 'agent', 'out')
    .build()
}

async function run(
  steps: ScriptStep[],
  config: Record<string, unknown> = {},
  extra: Parameters<typeof testContext>[0] = {},
) {
  const clock = new ManualClock()
  const provider = scriptedProvider(steps, { clock })
  const codeRunner = fakeCodeRunner(({ bindings }) => ({ rows: [], saw: bindings }))
  const { ctx } = testContext({ clock, provider, codeRunner, ...extra })
  const events = await runWithClock(agentFlow(config), ctx, clock)
  return { events, provider, codeRunner }
}

const guards = (events: RunEvent[]) => ofType(events, 'guard')

describe('agent node in a flow', () => {
  it('runs its loop and hands the answer downstream', async () => {
    const { events, provider, codeRunner } = await run([
      { toolCalls: [call('query_db', { status: 'pending' })], usage: { prompt: 50, completion: 10 } },
      { text: 'There are none.', usage: { prompt: 80, completion: 5 } },
    ])
    expect(provider.requests[0]?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'How many pending orders are there?',
    })
    expect(codeRunner.requests[0]).toMatchObject({
      code: 'return []',
      bindings: { args: { status: 'pending' }, inputs: { status: 'pending' } },
      timeoutMs: defaultProtection().sandboxTimeoutMs,
    })
    const output = outputOf(events, 'agent')
    expect(output).toMatchObject({ response: 'There are none.', iterations: 2, stopReason: 'answer' })
    expect(output?.['usage']).toEqual({ prompt: 130, completion: 15, total: 145, estimated: false })
    expect(output?.['toolCalls']).toEqual([
      {
        name: 'query_db',
        args: '{"status":"pending"}',
        observation: '{"rows":[],"saw":{"args":{"status":"pending"},"inputs":{"status":"pending"}}}',
      },
    ])
    expect(outputOf(events, 'out')).toEqual({ answer: 'There are none.', why: 'answer' })
    const finish = ofType(events, 'nodeFinish').find((e) => e.nodeId === 'agent')
    expect(finish?.status).toBe('success')
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success', usage: { total: 145 } })
  })

  it('trips on a stuck agent, emits stamped guard events, and still feeds the finalized answer downstream', async () => {
    const stuck = { toolCalls: [call('query_db', { status: 'pending' })] }
    const { events } = await run([stuck, stuck, stuck, { text: 'No pending orders.' }])
    expect(guards(events).map((g) => [g.nodeId, g.layer, g.level, g.detector])).toEqual([
      ['agent', 'loop', 'hint', 'repeat'],
      ['agent', 'loop', 'trip', 'repeat'],
    ])
    expect(guards(events)[1]).toMatchObject({
      type: 'guard',
      runId: 'run_test',
      tool: 'query_db',
      count: 3,
      message:
        '[Agent Deadlock Protection] Tripped: 3 consecutive identical calls to "query_db". Terminating loop to prevent token waste.',
    })
    const finish = ofType(events, 'nodeFinish').find((e) => e.nodeId === 'agent')
    expect(finish?.status).toBe('stopped')
    expect(outputOf(events, 'out')).toEqual({ answer: 'No pending orders.', why: 'deadlock' })
    expect(consoleOf(events, 'agent', 'log')).toContain('Execution halted by Deadlock Breaker')
  })

  it('feeds the partial answer downstream after a budget stop', async () => {
    const { events } = await run(
      [
        {
          text: 'Counting…',
          toolCalls: [call('query_db', { status: 'a' })],
          usage: { prompt: 600, completion: 500 },
        },
        { text: 'never' },
      ],
      { maxTokenBudget: 1000 },
    )
    expect(guards(events)[0]).toMatchObject({
      layer: 'budget',
      level: 'trip',
      total: 1100,
      budget: 1000,
      phase: 'after-call',
    })
    expect(outputOf(events, 'out')).toEqual({ answer: 'Counting…', why: 'budget' })
  })

  it('takes protection from the node, else the global settings, else the defaults', async () => {
    const wander = (_r: unknown, i: number) => ({ toolCalls: [call('query_db', { status: `s${i}` })] })
    const global = { ...defaultProtection(), maxIterations: 2 }
    const inherited = await run([wander], {}, { protection: global })
    expect(outputOf(inherited.events, 'agent')).toMatchObject({ iterations: 2, stopReason: 'iterations' })
    const own = await run([wander], { maxIterations: 4 }, { protection: global })
    expect(outputOf(own.events, 'agent')).toMatchObject({ iterations: 4, stopReason: 'iterations' })
    const cleared = await run([wander], { maxIterations: null }, { protection: global })
    expect(outputOf(cleared.events, 'agent')).toMatchObject({ iterations: 2 })
    expect(guards(own.events).at(-1)).toMatchObject({
      layer: 'iterations',
      message: '[Agent Max Iterations Reached] Synthesizing final answer...',
    })
  })

  it('inherits the global loop threshold and progress setting', async () => {
    const poll = (_r: unknown, i: number) =>
      i < 8 ? { toolCalls: [call('query_db', { status: 'x' })] } : { text: 'done' }
    const strict = await run(
      [poll],
      {},
      { protection: { ...defaultProtection(), loopDetectionThreshold: 4, progressAware: false } },
    )
    expect(guards(strict.events).map((g) => g.level)).toEqual(['hint', 'trip'])
    expect(guards(strict.events)[1]?.count).toBe(4)
    const off = await run([poll], { loopDetectionEnabled: false })
    expect(guards(off.events)).toEqual([])
    expect(outputOf(off.events, 'agent')).toMatchObject({ iterations: 9, stopReason: 'answer' })
  })

  it('passes the provider id and inline demo script to the resolver', async () => {
    const script = { format: 'wardflow.demo-script', version: 1, replies: [{ text: 'hi' }] }
    const { provider } = await run([{ text: 'ok' }], { provider: 'demo', demoScript: script })
    expect(provider.resolved).toEqual([{ providerId: 'demo', nodeId: 'agent', demoScript: script }])
  })

  it('runs a node tool with the arguments visible as {{args.*}}', async () => {
    const clock = new ManualClock()
    const provider = scriptedProvider(
      [{ toolCalls: [call('greet', { name: 'Ada' })] }, { text: 'Greeted.' }],
      { clock },
    )
    const { ctx } = testContext({ clock, provider })
    const doc = flow()
      .node('tpl', 'template', { template: 'Hello, {{args.name}}!' })
      .node('agent', 'agent', {
        prompt: 'Greet Ada.',
        tools: [
          {
            name: 'greet',
            kind: 'node',
            nodeId: 'tpl',
            parameters: { type: 'object', properties: { name: { type: 'string' } } },
          },
        ],
      })
      .build()
    const events = await runWithClock(doc, ctx, clock)
    const toolCalls = outputOf(events, 'agent')?.['toolCalls'] as Array<{ observation: string }>
    expect(toolCalls[0]?.observation).toBe('{"text":"Hello, Ada!"}')
  })

  it('fails with CANCELLED when the run is stopped mid-loop', async () => {
    const clock = new ManualClock()
    let started!: () => void
    const toolStarted = new Promise<void>((resolve) => (started = resolve))
    const provider = scriptedProvider(
      [{ toolCalls: [call('query_db', { status: 'a' })] }, { text: 'never' }],
      { clock },
    )
    const codeRunner = fakeCodeRunner(({ signal }) => {
      started()
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('stopped'))),
      )
    })
    const { ctx, controller } = testContext({ clock, provider, codeRunner })
    const events: RunEvent[] = []
    const { runFlow } = await import('../../../src/engine/run.ts')
    const { engineRegistry } = await import('../../../src/nodes/registry.ts')
    const done = (async () => {
      for await (const event of runFlow(agentFlow({}), engineRegistry, ctx)) events.push(event)
    })()
    await toolStarted
    controller.abort()
    await done
    expect(provider.requests).toHaveLength(1)
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'cancelled' })
    expect(outputOf(events, 'agent')).toBeUndefined()
  })
})
