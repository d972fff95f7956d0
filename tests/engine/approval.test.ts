/**
 * Tool-call approval (flow-control.md, "MCP tools and approval") through real flow runs of an
 * Agent node: approve, reject, edited arguments, the timeout on the clock, "always for this
 * tool", no port, Stop while waiting, and where the events come in the node's stream.
 */
import { describe, expect, it } from 'vitest'
import {
  DECLINED_OBSERVATION,
  runFlow,
  type ApprovalAnswer,
  type ApprovalPort,
  type ApprovalRequest,
  type FlowDocument,
  type RunEvent,
} from '../../src/engine/run.ts'
import { APPROVAL_TIMEOUT_MS } from '../../src/defaults.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { fakeCodeRunner } from '../support/fakeCodeRunner.ts'
import { flow, ofType, testContext } from '../support/flowBuilders.ts'
import { ManualClock } from '../support/manualClock.ts'
import { scriptedProvider, type ScriptStep } from '../support/scriptedProvider.ts'
import { outputOf, runWithClock } from '../nodes/runNodes.ts'

const call = (id: string, args: unknown, name = 'delete_order') => ({
  id,
  name,
  arguments: JSON.stringify(args),
})
const deleteTool = {
  name: 'delete_order',
  description: 'Delete an order',
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  kind: 'code',
  code: 'return "deleted " + args.id',
  approval: 'ask',
}

function agentFlow(tools: unknown[] = [deleteTool]): FlowDocument {
  return flow()
    .node('agent', 'agent', { prompt: 'Clean up.', tools })
    .node('out', 'output', { values: { answer: '{{agent.response}}' } })
    .chain('agent', 'out')
    .build()
}

/** A port that answers from a list (or a function), recording what it was asked. */
function port(answer: (request: ApprovalRequest, n: number) => ApprovalAnswer | Promise<ApprovalAnswer>) {
  const asked: ApprovalRequest[] = []
  const signals: AbortSignal[] = []
  const approval: ApprovalPort = {
    ask: async (request, signal) => {
      asked.push(request)
      signals.push(signal)
      return answer(request, asked.length - 1)
    },
  }
  return { approval, asked, signals }
}

async function run(steps: ScriptStep[], approval?: ApprovalPort, tools?: unknown[]) {
  const clock = new ManualClock()
  const provider = scriptedProvider(steps, { clock })
  const codeRunner = fakeCodeRunner(({ bindings }) => `deleted ${(bindings['args'] as { id: string }).id}`)
  const { ctx } = testContext({ clock, provider, codeRunner, ...(approval ? { approval } : {}) })
  const events = await runWithClock(agentFlow(tools), ctx, clock)
  return { events, provider, codeRunner }
}

const toolResults = (provider: { requests: Array<{ messages: Array<{ role: string; content: string }> }> }) =>
  (provider.requests.at(-1)?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content)

const approvalEvents = (events: RunEvent[]) =>
  events.filter((e) => e.type === 'approvalRequest' || e.type === 'approvalDecision')

describe('approval of Agent tool calls', () => {
  it('approved: the request, then the decision, then the call runs; events in node order', async () => {
    const p = port(() => ({ decision: 'approved', by: 'user' }))
    const { events, provider, codeRunner } = await run(
      [{ toolCalls: [call('c1', { id: 'A-1' })] }, { text: 'Deleted A-1.' }],
      p.approval,
    )
    expect(p.asked).toEqual([
      { runId: 'run_test', nodeId: 'agent', callId: 'c1', tool: 'delete_order', args: { id: 'A-1' } },
    ])
    expect(approvalEvents(events)).toMatchObject([
      {
        type: 'approvalRequest',
        runId: 'run_test',
        nodeId: 'agent',
        callId: 'c1',
        tool: 'delete_order',
        args: { id: 'A-1' },
      },
      { type: 'approvalDecision', nodeId: 'agent', callId: 'c1', decision: 'approved', by: 'user' },
    ])
    expect(ofType(events, 'approvalDecision')[0]).not.toHaveProperty('args')
    // Between the node's start and its end; the call's log line before, its result after.
    const types = events.filter((e) => 'nodeId' in e && e.nodeId === 'agent').map((e) => e.type)
    const at = (type: string) => types.indexOf(type as RunEvent['type'])
    expect(at('nodeStart')).toBeLessThan(at('approvalRequest'))
    expect(at('approvalRequest')).toBeLessThan(at('approvalDecision'))
    expect(at('approvalDecision')).toBeLessThan(types.lastIndexOf('nodeChunk'))
    expect(types.at(-1)).toBe('nodeFinish')
    const chunks = ofType(events, 'nodeChunk')
      .map((e) => e.text)
      .join('')
    expect(chunks.indexOf('→ delete_order')).toBeLessThan(chunks.indexOf('← deleted A-1'))
    expect(codeRunner.requests).toHaveLength(1)
    expect(toolResults(provider)).toEqual(['deleted A-1'])
    expect(outputOf(events, 'out')).toEqual({ answer: 'Deleted A-1.' })
  })

  it('rejected: the tool never runs and the model reads the contract observation', async () => {
    const p = port(() => ({ decision: 'rejected', by: 'user' }))
    const { events, provider, codeRunner } = await run(
      [{ toolCalls: [call('c1', { id: 'A-1' })] }, { text: 'I did not delete it.' }],
      p.approval,
    )
    expect(DECLINED_OBSERVATION).toBe('Observation: The user declined this call.')
    expect(codeRunner.requests).toHaveLength(0)
    expect(toolResults(provider)).toEqual([DECLINED_OBSERVATION])
    expect(ofType(events, 'approvalDecision')).toMatchObject([{ decision: 'rejected', by: 'user' }])
    expect(outputOf(events, 'agent')?.['toolCalls']).toEqual([
      { name: 'delete_order', args: '{"id":"A-1"}', observation: DECLINED_OBSERVATION },
    ])
  })

  it('edited arguments: the call runs with them and the decision carries them', async () => {
    const p = port(() => ({ decision: 'approved', by: 'user', args: { id: 'B-2' } }))
    const { events, provider, codeRunner } = await run(
      [{ toolCalls: [call('c1', { id: 'A-1' })] }, { text: 'ok' }],
      p.approval,
    )
    expect(codeRunner.requests[0]?.bindings).toMatchObject({ args: { id: 'B-2' } })
    expect(toolResults(provider)).toEqual(['deleted B-2'])
    expect(ofType(events, 'approvalRequest')[0]?.args).toEqual({ id: 'A-1' })
    expect(ofType(events, 'approvalDecision')[0]).toMatchObject({ decision: 'approved', args: { id: 'B-2' } })
  })

  it('edited arguments that do not fit the schema are refused like the model’s own', async () => {
    const p = port(() => ({ decision: 'approved', by: 'user', args: { id: 7 } }))
    const { provider, codeRunner } = await run(
      [{ toolCalls: [call('c1', { id: 'A-1' })] }, { text: 'ok' }],
      p.approval,
    )
    expect(codeRunner.requests).toHaveLength(0)
    expect(toolResults(provider)[0]).toMatch(
      /^Observation: Error - Invalid arguments for tool "delete_order": arguments.id must be string/,
    )
  })

  it('arguments that are not JSON are answered without asking anyone', async () => {
    const p = port(() => ({ decision: 'approved', by: 'user' }))
    const { events } = await run(
      [{ toolCalls: [{ id: 'c1', name: 'delete_order', arguments: '{not json' }] }, { text: 'ok' }],
      p.approval,
    )
    expect(p.asked).toHaveLength(0)
    expect(approvalEvents(events)).toEqual([])
  })

  it('no answer within the timeout counts as a rejection by "timeout", and the wait is withdrawn', async () => {
    const p = port(() => new Promise<ApprovalAnswer>(() => undefined))
    const clock = new ManualClock()
    const provider = scriptedProvider([{ toolCalls: [call('c1', { id: 'A-1' })] }, { text: 'gave up' }], {
      clock,
    })
    const { ctx } = testContext({ clock, provider, approval: p.approval, approvalTimeoutMs: 60_000 })
    const events: RunEvent[] = []
    const done = (async () => {
      for await (const e of runFlow(agentFlow(), engineRegistry, ctx)) events.push(e)
    })()
    for (let i = 0; i < 200 && p.asked.length === 0; i++) await clock.advance(10)
    expect(p.signals[0]?.aborted).toBe(false)
    await clock.advance(59_000)
    expect(ofType(events, 'approvalDecision')).toEqual([])
    await clock.advance(1_000)
    await clock.runAll()
    await done
    const decision = ofType(events, 'approvalDecision')[0]
    expect(decision).toMatchObject({ decision: 'rejected', by: 'timeout' })
    expect((decision?.at ?? 0) - (ofType(events, 'approvalRequest')[0]?.at ?? 0)).toBe(60_000)
    expect(p.signals[0]?.aborted).toBe(true)
    expect(toolResults(provider)).toEqual([DECLINED_OBSERVATION])
  })

  it('the default timeout is ten minutes', () => {
    expect(APPROVAL_TIMEOUT_MS).toBe(10 * 60_000)
  })

  it('"always for this tool": later calls of the tool in this run are approved by policy, unasked', async () => {
    const p = port(() => ({ decision: 'approved', by: 'user', always: true }))
    const other = { ...deleteTool, name: 'archive_order' }
    const { events, codeRunner } = await run(
      [
        { toolCalls: [call('c1', { id: 'A-1' }), call('c2', { id: 'A-2' })] },
        { toolCalls: [call('c3', { id: 'A-3' }), call('c4', { id: 'A-4' }, 'archive_order')] },
        { text: 'done' },
      ],
      p.approval,
      [deleteTool, other],
    )
    expect(p.asked.map((r) => r.callId)).toEqual(['c1', 'c4'])
    expect(ofType(events, 'approvalDecision').map((e) => [e.callId, e.by])).toEqual([
      ['c1', 'user'],
      ['c2', 'policy'],
      ['c3', 'policy'],
      ['c4', 'user'],
    ])
    expect(codeRunner.requests).toHaveLength(4)
  })

  it('with no approval port an asked call is rejected by policy', async () => {
    const { events, codeRunner, provider } = await run([
      { toolCalls: [call('c1', { id: 'A-1' })] },
      { text: 'ok' },
    ])
    expect(ofType(events, 'approvalDecision')).toMatchObject([{ decision: 'rejected', by: 'policy' }])
    expect(codeRunner.requests).toHaveLength(0)
    expect(toolResults(provider)).toEqual([DECLINED_OBSERVATION])
  })

  it('a tool that does not ask (or says "never") runs without approval events', async () => {
    const p = port(() => ({ decision: 'rejected', by: 'user' }))
    const { events, codeRunner } = await run(
      [{ toolCalls: [call('c1', { id: 'A-1' }), call('c2', { id: 'A-2' }, 'never_tool')] }, { text: 'ok' }],
      p.approval,
      [
        { ...deleteTool, approval: undefined },
        { ...deleteTool, name: 'never_tool', approval: 'never' },
      ],
    )
    expect(p.asked).toEqual([])
    expect(approvalEvents(events)).toEqual([])
    expect(codeRunner.requests).toHaveLength(2)
  })

  it('Stop while waiting ends the run at once: the node is cancelled and no decision is made up', async () => {
    const p = port(() => new Promise<ApprovalAnswer>(() => undefined))
    const clock = new ManualClock()
    const provider = scriptedProvider([{ toolCalls: [call('c1', { id: 'A-1' })] }, { text: 'never' }], {
      clock,
    })
    const { ctx, controller } = testContext({ clock, provider, approval: p.approval })
    const events: RunEvent[] = []
    for await (const e of runFlow(agentFlow(), engineRegistry, ctx)) {
      events.push(e)
      if (e.type === 'approvalRequest') controller.abort()
      if (e.type === 'nodeStart') void clock.runAll()
    }
    expect(ofType(events, 'approvalDecision')).toEqual([])
    expect(ofType(events, 'nodeError')).toMatchObject([{ nodeId: 'agent', code: 'CANCELLED' }])
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'cancelled' })
    expect(p.signals[0]?.aborted).toBe(true)
  })

  it('an Agent inside a loop body: its approval events carry the loop segment', async () => {
    const p = port(() => ({ decision: 'approved', by: 'user' }))
    const clock = new ManualClock()
    const provider = scriptedProvider([{ toolCalls: [call('c1', { id: 'A-1' })] }, { text: 'ok' }], { clock })
    const doc = flow()
      .node('loop', 'loop', { mode: 'forEach', items: '["A-1"]' })
      .node('agent', 'agent', { prompt: 'Clean up {{loop.item}}.', tools: [deleteTool] })
      .build()
    for (const n of doc.nodes) if (n.id === 'agent') n.parentId = 'loop'
    const { ctx } = testContext({ clock, provider, approval: p.approval })
    const events = await runWithClock(doc, ctx, clock)
    const asked = ofType(events, 'approvalRequest')
    expect(asked).toHaveLength(1)
    expect(asked[0]?.nesting).toEqual([{ nodeId: 'loop', kind: 'loop', iteration: 0 }])
    expect(ofType(events, 'approvalDecision')[0]?.nesting).toEqual([
      { nodeId: 'loop', kind: 'loop', iteration: 0 },
    ])
  })
})
