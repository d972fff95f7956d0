import { describe, expect, it } from 'vitest'
import { RunResources, runsCode, type RunHost } from '../../src/app/runs/RunResources.ts'
import type { FlowDocument } from '../../src/engine/index.ts'
import { systemClock } from '../../src/platform/systemClock.ts'
import { DEMO_PROVIDER, defaultSettings, type AppSettings } from '../../src/settings/schema.ts'
import { flow } from '../support/flowBuilders.ts'
import { config } from '../storage/support.ts'

const agent = (agentConfig: Record<string, unknown>) =>
  flow().meta('flow_a').node('agent_1', 'agent', agentConfig).build()

/** Input -> Template -> LLM -> HTTP -> Output: models and requests, no code. */
function flowWithoutCode(): FlowDocument {
  return flow()
    .meta('flow_plain')
    .node('in_1', 'input', config('input', { values: { q: 'x' } }))
    .node('tpl_1', 'template', config('template'))
    .node('llm_1', 'llm', config('llm'))
    .node('http_1', 'http', config('http'))
    .node('out_1', 'output', config('output'))
    .chain('in_1', 'tpl_1')
    .chain('tpl_1', 'llm_1')
    .chain('llm_1', 'http_1')
    .chain('http_1', 'out_1')
    .build()
}

describe('runsCode (whether a run starts the sandbox with its first node)', () => {
  it('is true for a Code node and for an Agent with a code tool', () => {
    expect(
      runsCode(
        flow()
          .meta('f')
          .node('c', 'code', config('code', { code: 'return 1' }))
          .build(),
      ),
    ).toBe(true)
    const tools = [
      { kind: 'http', name: 'get' },
      { kind: 'code', name: 'calc' },
    ]
    expect(runsCode(agent(config('agent', { tools })))).toBe(true)
  })

  it('is false for input, template, LLM, HTTP and output nodes, and for an Agent without code tools', () => {
    expect(runsCode(flowWithoutCode())).toBe(false)
    const noCode = [
      { kind: 'http', name: 'get' },
      { kind: 'node', name: 'ask' },
    ]
    expect(runsCode(agent(config('agent', { tools: noCode })))).toBe(false)
    expect(runsCode(agent(config('agent', { tools: [] })))).toBe(false)
    expect(runsCode(agent(config('agent', { tools: [null, 'code'] })))).toBe(false)
    const { tools: _dropped, ...withoutTools } = config('agent')
    expect(runsCode(agent(withoutTools))).toBe(false)
    // Only an Agent's tools count: another node with a `tools` field runs no code.
    const odd = flow()
      .meta('f')
      .node('h', 'http', config('http', { tools: [{ kind: 'code' }] }))
      .build()
    expect(runsCode(odd)).toBe(false)
  })
})

describe('RunResources: when the sandbox starts', () => {
  function resources() {
    const started: string[] = []
    const host: RunHost = {
      clock: systemClock,
      fetch: () => Promise.reject(new Error('no network in this test')),
      createCodeRunner: () => {
        started.push('created')
        return {
          run: async () => ({ result: 7, logs: [] }),
          warm: async () => {
            started.push('warmed')
          },
        }
      },
      loadEstimator: async () => async (text) => text.length,
    }
    const settings: AppSettings = { ...defaultSettings(), providers: [{ ...DEMO_PROVIDER }] }
    return { started, run: new RunResources(host, () => settings) }
  }

  it('starts it when a run of a flow with code begins, before any node runs', async () => {
    const { started, run } = resources()
    const codeFlow = flow()
      .meta('f')
      .node('c', 'code', config('code', { code: 'return 7' }))
      .build()
    await run.context('run_1', new AbortController().signal, codeFlow)
    expect(started).toEqual(['created', 'warmed'])
  })

  it('does not start it for a flow without code until something asks, then starts it once', async () => {
    const { started, run } = resources()
    const ctx = await run.context('run_1', new AbortController().signal, flowWithoutCode())
    expect(started).toEqual([])
    const request = { code: 'return 7', bindings: {}, timeoutMs: 1000, signal: new AbortController().signal }
    expect((await ctx.codeRunner.run(request)).result).toBe(7)
    expect((await ctx.codeRunner.run(request)).result).toBe(7)
    expect(started).toEqual(['created', 'warmed'])
  })

  it('starts none once disposed', async () => {
    const { started, run } = resources()
    const ctx = await run.context('run_1', new AbortController().signal, flowWithoutCode())
    run.dispose()
    await expect(
      ctx.codeRunner.run({
        code: 'return 7',
        bindings: {},
        timeoutMs: 1000,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow()
    expect(started).toEqual([])
  })
})
