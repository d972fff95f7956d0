/**
 * Continuing a run after a reload lost its pending approval (engine/approvalResume.ts): the
 * timeout counts from the original ask, and the continued run's first call of the node with the
 * same tool and arguments gets the recorded decision without asking, through a real Agent run.
 */
import { describe, expect, it } from 'vitest'
import {
  answerAfterReload,
  DECLINED_OBSERVATION,
  matchesRecorded,
  withRecordedAnswer,
  type ApprovalPort,
  type ApprovalRequest,
  type FlowDocument,
  type RunEvent,
} from '../../src/engine/run.ts'
import { APPROVAL_TIMEOUT_MS } from '../../src/defaults.ts'
import { fakeCodeRunner } from '../support/fakeCodeRunner.ts'
import { flow, ofType, testContext } from '../support/flowBuilders.ts'
import { ManualClock } from '../support/manualClock.ts'
import { scriptedProvider, type ScriptStep } from '../support/scriptedProvider.ts'
import { runWithClock } from '../nodes/runNodes.ts'

const deleteTool = {
  name: 'delete_order',
  description: 'Delete an order',
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  kind: 'code',
  code: 'return "deleted " + args.id',
  approval: 'ask',
}
const call = (id: string, args: string) => ({ id, name: 'delete_order', arguments: args })
const request = (args: unknown, nodeId = 'agent', tool = 'delete_order'): ApprovalRequest => ({
  runId: 'r2',
  nodeId,
  callId: 'x',
  tool,
  args,
})

function agentFlow(): FlowDocument {
  return flow()
    .node('agent', 'agent', { prompt: 'Clean up.', tools: [deleteTool] })
    .node('out', 'output', { values: { answer: '{{agent.response}}' } })
    .chain('agent', 'out')
    .build()
}

/** A live port that records what it was asked and approves. */
function livePort() {
  const asked: ApprovalRequest[] = []
  const port: ApprovalPort = {
    ask: async (r) => {
      asked.push(r)
      return { decision: 'approved', by: 'user' }
    },
  }
  return { port, asked }
}

async function run(steps: ScriptStep[], approval: ApprovalPort) {
  const clock = new ManualClock()
  const provider = scriptedProvider(steps, { clock })
  const codeRunner = fakeCodeRunner(({ bindings }) => `deleted ${(bindings['args'] as { id: string }).id}`)
  const { ctx } = testContext({ clock, provider, codeRunner, approval })
  const events: RunEvent[] = await runWithClock(agentFlow(), ctx, clock)
  const toolResults = (provider.requests.at(-1)?.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content)
  return { events, codeRunner, toolResults }
}

describe('answerAfterReload', () => {
  it('keeps the decision within the timeout and rejects by timeout from the original ask on', () => {
    const approved = { decision: 'approved', by: 'user' } as const
    expect(answerAfterReload({ askedAt: 1000, timeoutMs: 5000 }, approved, 5999)).toEqual(approved)
    expect(answerAfterReload({ askedAt: 1000, timeoutMs: 5000 }, approved, 6000)).toEqual({
      decision: 'rejected',
      by: 'timeout',
    })
    // No timeout recorded: the default applies.
    expect(answerAfterReload({ askedAt: 0 }, approved, APPROVAL_TIMEOUT_MS - 1)).toEqual(approved)
    expect(answerAfterReload({ askedAt: 0 }, approved, APPROVAL_TIMEOUT_MS).by).toBe('timeout')
  })
})

describe('matchesRecorded', () => {
  const recorded = { nodeId: 'agent', tool: 'delete_order', args: { id: 'A-1', force: true } }
  it('matches the same call whatever its key order, and nothing else', () => {
    expect(matchesRecorded(recorded, request({ force: true, id: 'A-1' }))).toBe(true)
    expect(matchesRecorded(recorded, request({ id: 'A-2', force: true }))).toBe(false)
    expect(matchesRecorded(recorded, request({ id: 'A-1', force: true }, 'other'))).toBe(false)
    expect(matchesRecorded(recorded, request({ id: 'A-1', force: true }, 'agent', 'list'))).toBe(false)
  })
})

describe('a continued run with the recorded decision', () => {
  it('approved: the same call runs without asking; a later call of the tool asks as usual', async () => {
    const live = livePort()
    const port = withRecordedAnswer(live.port, {
      nodeId: 'agent',
      tool: 'delete_order',
      args: { id: 'A-1' },
      answer: { decision: 'approved', by: 'user' },
    })
    const { events, codeRunner, toolResults } = await run(
      [
        // The model's call again, spelled differently: the same signature.
        { toolCalls: [call('c9', '{ "id" : "A-1" }')] },
        { toolCalls: [call('c10', '{"id":"B-2"}')] },
        { text: 'Deleted both.' },
      ],
      port,
    )
    expect(live.asked.map((r) => r.args)).toEqual([{ id: 'B-2' }])
    expect(codeRunner.requests).toHaveLength(2)
    expect(toolResults).toEqual(['deleted A-1', 'deleted B-2'])
    // The continued run's record says who decided the first call: the person, before the reload.
    expect(ofType(events, 'approvalDecision').map((e) => [e.callId, e.decision, e.by])).toEqual([
      ['c9', 'approved', 'user'],
      ['c10', 'approved', 'user'],
    ])
  })

  it('rejected (or timed out): the model reads the contract’s declined observation', async () => {
    const live = livePort()
    const port = withRecordedAnswer(live.port, {
      nodeId: 'agent',
      tool: 'delete_order',
      args: { id: 'A-1' },
      answer: answerAfterReload({ askedAt: 0, timeoutMs: 1000 }, { decision: 'approved', by: 'user' }, 2000),
    })
    const { events, codeRunner, toolResults } = await run(
      [{ toolCalls: [call('c1', '{"id":"A-1"}')] }, { text: 'Not deleted.' }],
      port,
    )
    expect(live.asked).toEqual([])
    expect(codeRunner.requests).toHaveLength(0)
    expect(toolResults).toEqual([DECLINED_OBSERVATION])
    expect(ofType(events, 'approvalDecision')).toMatchObject([{ decision: 'rejected', by: 'timeout' }])
  })

  it('without a live port, other calls are rejected by policy', async () => {
    const port = withRecordedAnswer(undefined, {
      nodeId: 'agent',
      tool: 'delete_order',
      args: { id: 'A-1' },
      answer: { decision: 'approved', by: 'user' },
    })
    await expect(port.ask(request({ id: 'Z' }), new AbortController().signal)).resolves.toEqual({
      decision: 'rejected',
      by: 'policy',
    })
  })
})
