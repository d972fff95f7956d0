import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import {
  BatchTotals,
  estimateLeft,
  notRunRow,
  outputNodeIds,
  resultLine,
  resultsCsv,
  resultsJsonl,
  RowResultCollector,
  type RowResult,
} from '../../src/batch/result.ts'
import type { FlowDocument, RunEvent } from '../../src/engine/index.ts'

const base = { runId: 'r1', at: 1 }
const usage = { prompt: 3, completion: 4, total: 7, estimated: false }

function flow(nodes: Array<[string, string]>, edges: Array<[string, string]>): FlowDocument {
  return {
    metadata: { id: 'f', name: 'f' },
    nodes: nodes.map(([id, type]) => ({
      id,
      type,
      position: { x: 0, y: 0 },
      data: { label: id, config: {} },
    })),
    edges: edges.map(([source, target], i) => ({ id: `e${i}`, source, target })),
  } as unknown as FlowDocument
}

describe('a row result from run events', () => {
  it('merges the Output nodes by key, ignores nested events and takes the run usage with its cost', () => {
    const c = new RowResultCollector(5, ['out1', 'out2'])
    const events: RunEvent[] = [
      { ...base, type: 'runStart', flowId: 'f' } as RunEvent,
      {
        ...base,
        type: 'nodeFinish',
        nodeId: 'llm',
        status: 'success',
        output: { text: 'x' },
        durationMs: 1,
        usage,
      },
      {
        ...base,
        type: 'nodeFinish',
        nodeId: 'out1',
        status: 'success',
        output: { a: 1, b: 1 },
        durationMs: 1,
      },
      {
        ...base,
        type: 'nodeFinish',
        nodeId: 'out2',
        status: 'success',
        output: { b: 2 },
        durationMs: 1,
        nesting: [{ nodeId: 'loop', kind: 'loop', iteration: 0 }],
      },
      { ...base, type: 'nodeFinish', nodeId: 'out2', status: 'success', output: { b: 3 }, durationMs: 1 },
      {
        ...base,
        type: 'runFinish',
        status: 'success',
        usage: { ...usage, costUsd: 0.25 } as typeof usage,
        durationMs: 5,
      },
    ]
    events.forEach((e) => c.push(e))
    const r = c.result()
    expect(r).toEqual({
      row: 5,
      status: 'success',
      outputs: { a: 1, b: 3 },
      usage: { ...usage, costUsd: 0.25 },
    })
    expect(resultLine(r)).toBe(
      '{"row":5,"status":"success","outputs":{"a":1,"b":3},"usage":{"prompt":3,"completion":4,"total":7,"estimated":false,"costUsd":0.25}}',
    )
  })

  it('a failed run carries its first node error; no cost field when the run gave none', () => {
    const c = new RowResultCollector(0, ['out'])
    c.push({
      ...base,
      type: 'nodeError',
      nodeId: 'llm',
      code: 'PROVIDER_HTTP',
      message: 'HTTP 500',
      durationMs: 1,
    })
    c.push({ ...base, type: 'nodeError', nodeId: 'other', code: 'X', message: 'later', durationMs: 1 })
    c.push({ ...base, type: 'runFinish', status: 'error', usage, durationMs: 2 })
    const r = c.result()
    expect(r.status).toBe('error')
    expect(r.error).toBe('llm: HTTP 500')
    expect('costUsd' in r.usage).toBe(false)
  })

  it('a run that threw or never finished is an error', () => {
    expect(new RowResultCollector(1, []).result('boom')).toMatchObject({ status: 'error', error: 'boom' })
    expect(new RowResultCollector(1, []).result()).toMatchObject({ status: 'error' })
  })

  it('output nodes: the Output nodes, else the nodes nothing reads from', () => {
    const isOutput = (type: string) => type === 'output'
    expect(
      outputNodeIds(
        flow(
          [
            ['i', 'input'],
            ['o', 'output'],
            ['l', 'llm'],
          ],
          [['i', 'o']],
        ),
        isOutput,
      ),
    ).toEqual(['o'])
    expect(
      outputNodeIds(
        flow(
          [
            ['i', 'input'],
            ['l', 'llm'],
          ],
          [['i', 'l']],
        ),
        isOutput,
      ),
    ).toEqual(['l'])
  })
})

describe('exports', () => {
  const results: RowResult[] = [
    { row: 1, status: 'error', outputs: {}, usage, error: 'llm: bad, "quoted"\nnext line' },
    { row: 0, status: 'success', outputs: { answer: '=SUM(A1)', n: 2 }, usage: { ...usage, costUsd: 0.5 } },
    notRunRow(2, 'skipped', 'The batch was stopped before this row ran.'),
  ]

  it('JSONL in row order, one contract line each', () => {
    const lines = resultsJsonl(results)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as RowResult)
    expect(lines.map((l) => l.row)).toEqual([0, 1, 2])
    expect(Object.keys(lines[1] as object)).toEqual(['row', 'status', 'outputs', 'usage', 'error'])
    expect(Object.keys(lines[0] as object)).toEqual(['row', 'status', 'outputs', 'usage'])
  })

  it('CSV that reads back to the same cells, formulas escaped', () => {
    const parsed = Papa.parse<string[]>(resultsCsv(results), { skipEmptyLines: true }).data
    expect(parsed[0]).toEqual([
      'row',
      'status',
      'output.answer',
      'output.n',
      'prompt_tokens',
      'completion_tokens',
      'total_tokens',
      'cost_usd',
      'error',
    ])
    expect(parsed[1]).toEqual(['0', 'success', "'=SUM(A1)", '2', '3', '4', '7', '0.5', ''])
    expect(parsed[2]?.[8]).toBe('llm: bad, "quoted"\nnext line')
    expect(parsed[3]?.[1]).toBe('skipped')
  })
})

describe('totals, estimate and the batch budget', () => {
  it('estimates time, tokens and cost left from the rows so far', () => {
    const t = new BatchTotals()
    expect(estimateLeft(t, 10, 0)).toEqual({ msLeft: null, tokensLeft: null, costLeftUsd: null })
    t.add({ row: 0, status: 'success', outputs: {}, usage: { ...usage, costUsd: 0.1 } })
    t.add({ row: 1, status: 'error', outputs: {}, usage })
    const e = estimateLeft(t, 10, 2_000)
    expect(e.msLeft).toBe(8_000)
    expect(e.tokensLeft).toBe(56)
    expect(e.costLeftUsd).toBeCloseTo(0.8)
    expect(t.failed).toBe(1)
  })
})
