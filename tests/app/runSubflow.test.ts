import { describe, expect, it } from 'vitest'
import type { RunEvent } from '../../src/engine/index.ts'
import { listRuns } from '../../src/storage/repositories/runs.ts'
import { saveFlow } from '../../src/storage/repositories/flows.ts'
import { flow } from '../support/flowBuilders.ts'
import { harness } from './runHarness.ts'

/** Saved flow `shout`: Input `word` -> Output `loud = "{{in.word}}!"`. */
const shout = flow()
  .meta('shout', 'Shout')
  .node('in', 'input', { values: { word: '' } })
  .node('o', 'output', { values: { loud: '{{in.word}}!' } })
  .edge('in', 'o')
  .build()

function caller(id: string, target: string) {
  return flow()
    .meta(id, id)
    .node('q', 'input', { values: { word: 'tea' } })
    .node('call', 'subflow', { flow: target, inputs: { word: '{{q.word}}' } })
    .node('out', 'output', { values: { result: '{{call.loud}}' } })
    .chain('q', 'call', 'out')
    .build()
}

describe('run service with Sub-flow nodes', () => {
  it('runs the saved flow a Sub-flow node calls and keeps only the caller’s nodes on the canvas', async () => {
    const h = await harness()
    await saveFlow(h.db, shout)
    h.open(caller('main', 'shout'))
    await h.runToEnd()
    expect(h.notices.getState().banner).toBeNull()
    const nodes = h.runs.getState().nodes
    expect(nodes['call']).toMatchObject({ status: 'success', output: { loud: 'tea!' } })
    expect(nodes['out']).toMatchObject({ status: 'success', output: { result: 'tea!' } })
    // The called flow's nodes `in` and `o` are not nodes of this canvas.
    expect(Object.keys(nodes).sort()).toEqual(['call', 'out', 'q'])
    const [record] = await listRuns(h.db, 'main')
    expect(record?.outputs).toEqual({ q: { word: 'tea' }, call: { loud: 'tea!' }, out: { result: 'tea!' } })
    const events = (record?.events ?? []) as RunEvent[]
    expect(events.some((e) => e.path?.[0] === 'call')).toBe(true)
  })

  it('refuses to run a flow whose sub-flows call back into it, naming the chain', async () => {
    const h = await harness()
    await saveFlow(h.db, caller('back', 'main'))
    h.open(caller('main', 'back'))
    await h.runToEnd()
    const banner = h.notices.getState().banner
    expect(banner?.message).toContain('main -> back -> main')
    expect(h.runs.getState().run).toBeNull()
  })
})
