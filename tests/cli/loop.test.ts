import { describe, expect, it } from 'vitest'
import type { RunEvent } from '../../src/engine/index.ts'
import { wardflow } from '../support/wardflowCli.ts'

describe('wardflow run: a forEach loop (spawned)', { timeout: 60_000 }, () => {
  it('runs the body once per item, in item order, with iteration events, exit 0', async () => {
    const result = await wardflow(['run', 'tests/fixtures/cli/loop-foreach.wardflow.json', '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const events = result.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as RunEvent)
    expect(events[0]).toMatchObject({ type: 'runStart', nodeIds: ['in', 'each', 'out'] })
    const loop = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'each')
    expect(loop).toMatchObject({
      output: { results: [{ text: '#0: apple' }, { text: '#1: pear' }, { text: '#2: fig' }], count: 3 },
    })
    const body = events.filter((e) => e.type === 'nodeFinish' && e.nodeId === 'fmt')
    // A loop body's events say where with `nesting`; `path` is for sub-flows only (flow-control.md).
    const at = (e: RunEvent) => e.nesting?.[0]?.iteration ?? -1
    expect(body.sort((a, b) => at(a) - at(b)).map((e) => [e.nesting, e.path])).toEqual([
      [[{ nodeId: 'each', kind: 'loop', iteration: 0 }], undefined],
      [[{ nodeId: 'each', kind: 'loop', iteration: 1 }], undefined],
      [[{ nodeId: 'each', kind: 'loop', iteration: 2 }], undefined],
    ])
    expect(events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'out')).toMatchObject({
      output: { count: '3', second: '#1: pear' },
    })
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })
})
