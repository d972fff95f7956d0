import { describe, expect, it } from 'vitest'
import type { RunEvent } from '../../src/engine/index.ts'
import { jsonLines, wardflow } from '../support/wardflowCli.ts'

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

  it('a Code node in the body reads the item and index from inputs.<loop id>', async () => {
    const result = await wardflow(['run', 'tests/fixtures/cli/loop-code.wardflow.json', '--json'])
    expect(result.code).toBe(0)
    const events = jsonLines(result.stdout)
    const loop = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'each')
    expect(loop).toMatchObject({
      output: {
        results: [
          { result: '#0 tea: 6' },
          { error: 'Error: no cup ordered (line 2)' },
          { result: '#2 pot: 20' },
        ],
        count: 3,
      },
    })
  })

  it("the readable log heads each iteration's text with its index, also when they run side by side", async () => {
    const result = await wardflow(['run', 'tests/fixtures/cli/loop-code.wardflow.json'])
    expect(result.code).toBe(0)
    for (const [i, text] of [
      [0, '#0 tea: 6'],
      [2, '#2 pot: 20'],
    ] as const)
      expect(result.stdout).toContain(`── Line total (total) [each #${i}] ──\n${text}\n`)
  })
})

describe('wardflow run: a loop inside a loop (spawned)', { timeout: 60_000 }, () => {
  it('runs the inner loop once per outer item, its events naming both indexes, exit 0', async () => {
    const result = await wardflow(['run', 'tests/fixtures/cli/loop-nested.wardflow.json', '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const events = result.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as RunEvent)
    expect(events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'shelf')).toMatchObject({
      output: {
        results: [{ text: 'shelf 0: 2 fruit' }, { text: 'shelf 1: 1 fruit' }, { text: 'shelf 2: 3 fruit' }],
        count: 3,
      },
    })
    const labels = events.flatMap((e) =>
      e.type === 'nodeFinish' && e.nodeId === 'label'
        ? [[e.nesting?.map((s) => s.iteration), e.output['text']]]
        : [],
    )
    expect(labels.sort((a, b) => String(a[1]).localeCompare(String(b[1])))).toEqual([
      [[0, 0], '0.0 apple'],
      [[0, 1], '0.1 pear'],
      [[1, 0], '1.0 fig'],
      [[2, 0], '2.0 kiwi'],
      [[2, 1], '2.1 lime'],
      [[2, 2], '2.2 plum'],
    ])
    expect(events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'out')).toMatchObject({
      output: { shelves: '3', last: 'shelf 2: 3 fruit' },
    })
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })
})
