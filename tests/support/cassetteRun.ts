/**
 * The run the cassette tests convert: LLM, structured LLM (native) and an Agent with a code
 * tool, against the scripted provider, whose replies are chosen by request so the order in
 * which parallel branches call does not matter.
 */
import type { Recorder, Player } from '../../src/cassette/tape.ts'
import type { FlowDocument, RunContext, RunEvent } from '../../src/engine/run.ts'
import { runWithClock } from '../nodes/runNodes.ts'
import { fakeCodeRunner } from './fakeCodeRunner.ts'
import { flow, testContext } from './flowBuilders.ts'
import { ManualClock } from './manualClock.ts'
import { scriptedProvider } from './scriptedProvider.ts'

const queryTool = {
  name: 'query_db',
  description: 'Query the orders table',
  parameters: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
  kind: 'code',
  code: 'return []',
}

export function cassetteFlow(): FlowDocument {
  return flow()
    .meta('flow_cassette', 'Cassette flow')
    .node('in', 'input', { values: { q: 'pending orders' } })
    .node('draft', 'llm', { model: 'gpt-test', prompt: 'Rephrase: {{in.q}}', temperature: 0.2 })
    .node('facts', 'llm', {
      model: 'gpt-test',
      prompt: 'Facts about {{in.q}}',
      output: { schema: { type: 'object', properties: { count: { type: 'number' } } }, repairAttempts: 1 },
    })
    .node('agent', 'agent', { prompt: 'How many {{draft.response}} are there?', tools: [queryTool] })
    .node('out', 'output', { values: { answer: '{{agent.response}}', draft: '{{draft.response}}' } })
    .chain('in', 'draft', 'agent', 'out')
    .edge('in', 'facts')
    .build()
}

export const isOut = (id: string): boolean => id === 'out'

export async function runOnce(
  doc: FlowDocument,
  ctxOf: (clock: ManualClock) => RunContext,
): Promise<RunEvent[]> {
  const clock = new ManualClock()
  return runWithClock(doc, ctxOf(clock), clock)
}

export function scriptedCtx(clock: ManualClock, recorder?: Recorder): RunContext {
  // Replies chosen by request, so the order in which parallel branches call does not matter.
  const provider = scriptedProvider(
    [
      (request) => {
        const last = request.messages.at(-1)?.content ?? ''
        if (last.startsWith('Rephrase')) return { text: 'open orders', usage: { prompt: 9, completion: 2 } }
        if (last.startsWith('Facts')) return { text: '{"count": 3}', usage: { prompt: 12, completion: 4 } }
        if (request.messages.some((m) => m.role === 'tool'))
          return { text: 'There are none.', reasoning: 'The table is empty.', usage: null }
        return {
          toolCalls: [{ name: 'query_db', arguments: '{"status":"open"}' }],
          usage: { prompt: 50, completion: 10 },
        }
      },
    ],
    { clock, structuredOutput: 'native' },
  )
  const codeRunner = fakeCodeRunner(() => [])
  const providers = recorder ? recorder.providers(provider) : provider
  return testContext({ clock, provider: providers, codeRunner }).ctx
}

export function playerCtx(clock: ManualClock, player: Player): RunContext {
  const { ctx } = testContext({ clock, provider: player.providers(), codeRunner: fakeCodeRunner(() => []) })
  return { ...ctx, fetch: player.fetch() }
}
