import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listRuns } from '../../src/storage/repositories/runs.ts'
import type { FlowDocument } from '../../src/engine/index.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { flow } from '../support/flowBuilders.ts'
import { config, sampleFlow } from '../storage/support.ts'
import { harness, openAiProvider, until, type Harness } from './runHarness.ts'
import { DEMO_PROVIDER } from '../../src/settings/schema.ts'

function withProvider(doc: FlowDocument, provider: string): FlowDocument {
  return {
    ...doc,
    nodes: doc.nodes.map((n) =>
      n.type === 'llm' ? { ...n, data: { ...n.data, config: { ...n.data.config, provider } } } : n,
    ),
  }
}

function consoleText(h: Harness, nodeId: string): string {
  return (h.runs.getState().nodes[nodeId]?.consoleLines ?? []).map((l) => l.text).join('')
}

describe('run service against the local OpenAI-compatible mock server', () => {
  let mock: MockOpenAiServer
  beforeEach(async () => {
    // Words 30 ms apart: the text arrives over several frames, as from a real model.
    mock = await startMockOpenAiServer({ delayMs: 30 })
  })
  afterEach(async () => {
    await mock.close()
  })

  it('streams Input -> Template -> LLM -> Output into the store and saves one record at the end', async () => {
    const h = await harness({ settings: { providers: [{ ...DEMO_PROVIDER }, openAiProvider(mock.baseUrl)] } })
    h.open(withProvider(sampleFlow('flow_a'), 'mock'))
    const seen: string[] = []
    const statuses = new Set<string>()
    h.runs.subscribe((s) => {
      seen.push(consoleText(h, 'llm_1'))
      const llm = s.nodes['llm_1']?.status
      if (llm) statuses.add(llm)
    })

    await h.runToEnd()

    const state = h.runs.getState()
    expect(h.flushes).toBe(1)
    expect(h.notices.getState().banner).toBeNull()
    expect(consoleText(h, 'llm_1')).toBe('Echo: Tell me about otters')
    // Text arrived in several frames, growing, before the node finished.
    const partial = seen.filter((t) => t !== '' && t !== 'Echo: Tell me about otters')
    expect(partial.length).toBeGreaterThan(0)
    expect(statuses).toEqual(new Set(['queued', 'running', 'success']))
    for (const id of ['in_1', 'tpl_1', 'llm_1', 'out_1']) expect(state.nodes[id]?.status).toBe('success')
    expect(state.nodes['out_1']?.output).toEqual({ answer: 'Echo: Tell me about otters' })
    expect(state.nodes['llm_1']?.inputs).toEqual({ tpl_1: { text: 'Tell me about otters' } })
    expect(state.nodes['llm_1']?.usage?.total).toBeGreaterThan(0)
    expect(state.run).toMatchObject({ status: 'success', total: 4, done: 4, failures: [] })
    expect(state.phase).toBe('idle')

    const saved = await listRuns(h.db, 'flow_a')
    expect(saved).toHaveLength(1)
    const record = saved[0]
    expect(record).toMatchObject({ id: 'run_1', flowId: 'flow_a', status: 'success' })
    expect(record?.outputs['out_1']).toEqual({ answer: 'Echo: Tell me about otters' })
    expect(Object.keys(record?.timings ?? {}).sort()).toEqual(['in_1', 'llm_1', 'out_1', 'tpl_1'])
    expect(record?.usage.total).toBe(state.run?.usage.total)
    // Chunks of one node were merged: one chunk event per node and channel.
    const chunks = (record?.events ?? []).filter((e) => (e as { type: string }).type === 'nodeChunk')
    expect(chunks.filter((e) => (e as { nodeId: string }).nodeId === 'llm_1')).toHaveLength(1)
    expect(h.runs.getState().history.map((r) => r.id)).toEqual(['run_1'])
  })

  it('Stop aborts the model stream at once and saves the run as cancelled', async () => {
    const h = await harness({ settings: { providers: [{ ...DEMO_PROVIDER }, openAiProvider(mock.baseUrl)] } })
    mock.setScript([{ text: 'one two three four five six seven eight nine ten', delayMs: 400 }])
    h.open(withProvider(sampleFlow('flow_b'), 'mock'))
    h.service.run()
    expect(h.runs.getState().phase).toBe('preparing')
    await until(() => consoleText(h, 'llm_1').length > 0)
    expect(h.runs.getState().phase).toBe('running')
    // While the run streams, the record holds what ended before it (kept at node ends, issue 19
    // item 5) and no streamed text: nothing is written per token.
    const mid = await listRuns(h.db, 'flow_b')
    expect(mid.map((r) => r.status)).toEqual(['interrupted'])
    expect(mid[0]?.outputs['llm_1']).toBeUndefined()
    expect(mid[0]?.events.some((e) => (e as { type: string }).type === 'nodeChunk')).toBe(false)
    const stoppedAt = Date.now()
    h.service.stop()
    // The reply would take 4 s more; Stop settles the run at once.
    await until(() => h.runs.getState().run?.status === 'cancelled')
    expect(Date.now() - stoppedAt).toBeLessThan(1_000)
    await h.service.whenIdle()

    const state = h.runs.getState()
    expect(state.run?.status).toBe('cancelled')
    expect(state.nodes['llm_1']?.status).toBe('stopped')
    expect(state.nodes['out_1']?.status).toBe('skipped')
    expect(state.run?.failures).toEqual([])
    const saved = await listRuns(h.db, 'flow_b')
    expect(saved.map((r) => r.status)).toEqual(['cancelled'])
  })

  it('never lets a key reach the consoles, the store or the saved record', async () => {
    const key = 'sk-test-VERYSECRET-0123456789'
    await mock.close()
    mock = await startMockOpenAiServer({ apiKey: key })
    const h = await harness({
      settings: { providers: [{ ...DEMO_PROVIDER }, openAiProvider(mock.baseUrl, { apiKey: key })] },
    })
    const doc = withProvider(sampleFlow('flow_k'), 'mock')
    // A second model node whose server quotes the key back in its error message.
    doc.nodes.push({
      id: 'llm_2',
      type: 'llm',
      position: { x: 0, y: 300 },
      data: { label: 'Second', config: config('llm', { prompt: 'hi', provider: 'mock' }) },
    })
    mock.setScript([{ status: 400, error: `Invalid request for key ${key}` }], 'echo')
    h.open(doc)
    await h.runToEnd()

    const state = h.runs.getState()
    // The key was really used: the server accepted the first node.
    expect(state.nodes['llm_1']?.status === 'success' || state.nodes['llm_2']?.status === 'success').toBe(
      true,
    )
    const failed = ['llm_1', 'llm_2'].find((id) => state.nodes[id]?.status === 'error') as string
    expect(state.nodes[failed]?.error?.message).toContain('[redacted]')
    expect(JSON.stringify(state.nodes)).not.toContain(key)
    expect(JSON.stringify(state.run)).not.toContain(key)
    const saved = await listRuns(h.db, 'flow_k')
    expect(saved).toHaveLength(1)
    expect(JSON.stringify(saved)).not.toContain(key)
    expect(JSON.stringify(saved)).not.toContain('VERYSECRET')
  })

  it('scrubs a key the server splits across two streamed pieces from the merged console text', async () => {
    const key = 'sk-test-SPLITKEY-0123456789'
    await mock.close()
    mock = await startMockOpenAiServer({ apiKey: key, delayMs: 30 })
    const h = await harness({
      settings: { providers: [{ ...DEMO_PROVIDER }, openAiProvider(mock.baseUrl, { apiKey: key })] },
    })
    mock.setScript([{ chunks: ['Your key is sk-test-SPLI', 'TKEY-0123456789, thanks.'] }], 'echo')
    const shown: string[] = []
    h.runs.subscribe(() => shown.push(consoleText(h, 'llm_1')))
    h.open(withProvider(sampleFlow('flow_s'), 'mock'))
    await h.runToEnd()

    expect(consoleText(h, 'llm_1')).toBe('Your key is [redacted], thanks.')
    for (const text of shown) expect(text).not.toContain(key)
    expect(JSON.stringify(h.runs.getState().nodes)).not.toContain(key)
    expect(JSON.stringify(await listRuns(h.db, 'flow_s'))).not.toContain(key)
  })
})

describe('run service with locked keys', () => {
  it('asks once for the passphrase, then runs with the unlocked key', async () => {
    const key = 'sk-unlocked-key-42'
    const mock = await startMockOpenAiServer({ apiKey: key })
    try {
      let locked = true
      let asked = 0
      const h = await harness({
        settings: { providers: [{ ...DEMO_PROVIDER }, openAiProvider(mock.baseUrl)] },
        keys: {
          isLocked: () => locked,
          requestUnlock: async () => {
            asked += 1
            // What the settings area does on unlock: the settings store gets the keys.
            h.settings.value = {
              ...h.settings.value,
              providers: [{ ...DEMO_PROVIDER }, openAiProvider(mock.baseUrl, { apiKey: key })],
            }
            locked = false
            return true
          },
        },
      })
      h.open(withProvider(sampleFlow('flow_u'), 'mock'))
      await h.runToEnd()
      expect(asked).toBe(1)
      expect(h.notices.getState().banner).toBeNull()
      expect(h.runs.getState().nodes['llm_1']?.status).toBe('success')
      expect(mock.requests.some((r) => r.headers['authorization'] === `Bearer ${key}`)).toBe(true)
    } finally {
      await mock.close()
    }
  })
})

describe('run service with the demo provider', () => {
  it('refuses a flow with a loop: the banner explains it and nothing runs', async () => {
    const h = await harness()
    const doc = flow()
      .meta('flow_c')
      .node('a', 'template', config('template', { template: 'a' }), 'First')
      .node('b', 'template', config('template', { template: 'b' }), 'Second')
      .edge('a', 'b')
      .edge('b', 'a')
      .build()
    h.open(doc)
    await h.runToEnd()
    const banner = h.notices.getState().banner
    expect(banner?.code).toBe('RUN_REFUSED')
    expect(banner?.message).toContain('This flow cannot run yet.')
    expect(banner?.message).toMatch(/loop.*a → b → a|loop.*b → a → b/)
    expect(h.runs.getState().nodes).toEqual({})
    expect(h.runs.getState().run).toBeNull()
    expect(h.runs.getState().phase).toBe('idle')
    expect(await listRuns(h.db, 'flow_c')).toEqual([])
  })

  it('refuses a flow with nodes it cannot run and names every one of them', async () => {
    const h = await harness()
    const doc = flow()
      .meta('flow_d')
      .node('in_1', 'input', config('input', { values: { q: 'x' } }))
      .node('pc_1', 'unsupported', { originalType: 'vectorSearch' }, 'Vector search')
      .node('pc_2', 'teleporter', {}, 'Beam me up')
      .build()
    h.open(doc)
    await h.runToEnd()
    const message = h.notices.getState().banner?.message ?? ''
    expect(message).toContain('It has 2 nodes Wardflow cannot run')
    expect(message).toContain('"Vector search" (pc_1) (type "vectorSearch")')
    expect(message).toContain('"Beam me up" (pc_2) (type "teleporter")')
    expect(h.runs.getState().run).toBeNull()
    expect(await listRuns(h.db, 'flow_d')).toEqual([])
  })

  it('refuses a flow whose settings are not valid (an LLM node without a prompt)', async () => {
    const h = await harness()
    const doc = flow()
      .meta('flow_e')
      .node('llm_1', 'llm', config('llm', { prompt: '' }), 'Ask')
      .build()
    h.open(doc)
    await h.runToEnd()
    const banner = h.notices.getState().banner
    expect(banner?.code).toBe('RUN_REFUSED')
    expect(banner?.message).toContain('"Ask" (llm_1)')
    expect(h.runs.getState().run).toBeNull()
  })

  it('keeps only the last runHistoryPerFlow runs and lists them newest first', async () => {
    const h = await harness({ settings: { runHistoryPerFlow: 2 } })
    const doc = flow()
      .meta('flow_f')
      .node('in_1', 'input', config('input', { values: { q: 'x' } }))
      .node('out_1', 'output', config('output', { values: { a: '{{in_1.q}}' } }))
      .chain('in_1', 'out_1')
      .build()
    h.open(doc)
    for (let i = 0; i < 3; i += 1) {
      await h.runToEnd()
      // Distinct start times keep the newest-first order meaningful.
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const saved = await listRuns(h.db, 'flow_f')
    expect(saved.map((r) => r.id)).toEqual(['run_3', 'run_2'])
    expect(h.runs.getState().history.map((r) => r.id)).toEqual(['run_3', 'run_2'])
    expect(h.runs.getState().history[0]).toMatchObject({ status: 'success', flowId: 'flow_f' })
  })

  it('re-opens a past run read-only and goes back to the live canvas', async () => {
    const h = await harness()
    const doc = flow()
      .meta('flow_g')
      .node('in_1', 'input', config('input', { values: { q: 'first' } }))
      .node('out_1', 'output', config('output', { values: { a: '{{in_1.q}}' } }))
      .chain('in_1', 'out_1')
      .build()
    h.open(doc)
    await h.runToEnd()
    h.flows.getState().actions.setConfigField('in_1', 'values', { q: 'second' })
    await h.runToEnd()
    expect(consoleText(h, 'out_1')).toBe('second')

    await h.service.openRun('run_1')
    const past = h.runs.getState()
    expect(past.view).toMatchObject({ mode: 'past', runId: 'run_1' })
    expect(consoleText(h, 'out_1')).toBe('first')
    expect(past.nodes['out_1']?.status).toBe('success')
    expect(past.run?.status).toBe('success')

    h.service.showLive()
    expect(h.runs.getState().view.mode).toBe('live')
    expect(consoleText(h, 'out_1')).toBe('second')
  })

  it('asks for the passphrase before running a flow that needs a locked key', async () => {
    const asked: string[] = []
    let locked = true
    const h = await harness({
      settings: {
        providers: [{ ...DEMO_PROVIDER }, openAiProvider('http://127.0.0.1:9/v1')],
      },
      keys: {
        isLocked: () => locked,
        requestUnlock: async () => {
          asked.push('unlock')
          return false
        },
      },
    })
    h.open(withProvider(sampleFlow('flow_h'), 'mock'))
    await h.runToEnd()
    expect(asked).toEqual(['unlock'])
    expect(h.notices.getState().banner?.code).toBe('KEY_LOCKED')
    expect(h.runs.getState().run).toBeNull()
    locked = false
    expect(await listRuns(h.db, 'flow_h')).toEqual([])
  })

  it('runs a Code node in the code runner and shows its logs in the console', async () => {
    const h = await harness({
      codeRunner: {
        run: async (request) => ({
          result: { seen: Object.keys(request.bindings['inputs'] as object) },
          logs: ['hello from code'],
        }),
      },
    })
    const doc = flow()
      .meta('flow_i')
      .node('in_1', 'input', config('input', { values: { q: 'x' } }))
      .node('code_1', 'code', config('code', { code: 'console.log("hello from code"); return 1' }))
      .chain('in_1', 'code_1')
      .build()
    h.open(doc)
    await h.runToEnd()
    const code = h.runs.getState().nodes['code_1']
    expect(code?.status).toBe('success')
    expect(code?.output).toMatchObject({ result: { seen: ['in_1'] } })
    expect(code?.consoleLines.some((l) => l.kind === 'log' && l.text.includes('hello from code'))).toBe(true)
  })

  it('does not run an empty flow: a note says to add a node first', async () => {
    const h = await harness()
    h.open(flow().meta('flow_j').node('n', 'note', { text: 'just a note' }).build())
    await h.runToEnd()
    expect(h.notices.getState().notes.map((n) => n.key)).toEqual(['run:empty'])
    expect(h.runs.getState().run).toBeNull()
    expect(await listRuns(h.db, 'flow_j')).toEqual([])
  })

  it('runs a flow without model nodes without waiting for the tokenizer', async () => {
    let asked = 0
    const h = await harness({
      loadEstimator: () => {
        asked += 1
        return new Promise(() => undefined)
      },
    })
    const doc = flow()
      .meta('flow_l')
      .node('in_1', 'input', config('input', { values: { q: 'x' } }))
      .node('out_1', 'output', config('output', { values: { a: '{{in_1.q}}' } }))
      .chain('in_1', 'out_1')
      .build()
    h.open(doc)
    await h.runToEnd()
    expect(asked).toBe(0)
    expect(h.runs.getState().run?.status).toBe('success')
  })

  it('makes the token estimator once, on the first run of a flow that calls a model', async () => {
    let asked = 0
    const h = await harness({
      loadEstimator: async () => {
        asked += 1
        return async (text: string) => text.length
      },
    })
    h.open(sampleFlow('flow_m'))
    await h.runToEnd()
    await h.runToEnd()
    expect(asked).toBe(1)
    expect(h.runs.getState().nodes['llm_1']?.usage?.estimated).toBe(true)
  })
})
