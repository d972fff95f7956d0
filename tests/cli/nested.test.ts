import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SUBFLOW_MAX_DEPTH } from '../../src/defaults.ts'
import type { FlowDocument } from '../../src/engine/index.ts'
import { flow } from '../support/flowBuilders.ts'
import { caller, failer, inBody, leaf, loopCaller, looper } from '../support/nestedFlows.ts'
import { jsonLines, wardflow } from '../support/wardflowCli.ts'

/** A chain `d0 -> d1 -> … -> d<levels>` of flows, each calling the next; the last one is `leaf`. */
function chain(levels: number): FlowDocument[] {
  const docs = Array.from({ length: levels }, (_, i) =>
    caller(`d${i}`, i === levels - 1 ? 'leaf' : `d${i + 1}`, i === levels - 1 ? 'text' : 'result'),
  )
  return [...docs, leaf]
}

describe('wardflow run: loops and sub-flows nested (spawned)', { timeout: 120_000 }, () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wardflow-nested-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  /** Writes `main` carrying `called` as a version 2 workflow file and returns its path. */
  async function file(name: string, main: FlowDocument, ...called: FlowDocument[]): Promise<string> {
    const path = join(dir, `${name}.wardflow.json`)
    await writeFile(
      path,
      JSON.stringify({ format: 'wardflow.workflow', version: 2, ...main, subflows: called }),
    )
    return path
  }

  it('a sub-flow in a loop body: exit 0, events placed by iteration, the log names each', async () => {
    const path = await file('in-loop', loopCaller('leaf'), leaf)
    const json = await wardflow(['run', path, '--json'])
    expect(json.code).toBe(0)
    const inner = jsonLines(json.stdout).filter((e) => e.type === 'nodeFinish' && e.nodeId === 't')
    expect(inner.map((e) => [e.path, e.nesting])).toEqual([
      [
        ['call'],
        [
          { nodeId: 'outer', kind: 'loop', iteration: 0 },
          { nodeId: 'call', kind: 'subflow' },
        ],
      ],
      [
        ['call'],
        [
          { nodeId: 'outer', kind: 'loop', iteration: 1 },
          { nodeId: 'call', kind: 'subflow' },
        ],
      ],
    ])
    const log = await wardflow(['run', path])
    expect(log.code).toBe(0)
    expect(log.stdout).toContain('── Call (call) [outer #1] › out ──\n[b]\n')
    expect(log.stdout).toMatch(/Outputs\n {2}n: 2\n/)
  })

  it('a loop in a sub-flow: exit 0 and the called loop’s results come back', async () => {
    const path = await file('loop-inside', caller('main', 'looper', 'n'), looper)
    const result = await wardflow(['run', path, '--json', '--input', 'topic=tea'])
    expect(result.code).toBe(0)
    const fmt = jsonLines(result.stdout).filter((e) => e.type === 'nodeFinish' && e.nodeId === 'fmt')
    expect(fmt.map((e) => (e.type === 'nodeFinish' ? e.output['text'] : null))).toEqual(['tea-x', 'tea-y'])
    expect(jsonLines(result.stdout).at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })

  it(`nests sub-flows ${SUBFLOW_MAX_DEPTH} deep, and refuses one level more before running, exit 2`, async () => {
    // d0 runs d1 at depth 1, …, d4 runs leaf at depth 5.
    const [top, ...rest] = chain(SUBFLOW_MAX_DEPTH)
    const ok = await wardflow(['run', await file('deep-ok', top as FlowDocument, ...rest)])
    expect(ok.stderr).not.toContain('error')
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/result: \[tea\]/)
    const [over, ...more] = chain(SUBFLOW_MAX_DEPTH + 1)
    const tooDeep = await wardflow(['run', await file('deep-over', over as FlowDocument, ...more), '--json'])
    expect(tooDeep.code).toBe(2)
    expect(tooDeep.stdout).toBe('')
    expect(tooDeep.stderr).toContain(
      `"Call" (call): sub-flows nest more than ${SUBFLOW_MAX_DEPTH} deep: d0 -> d1 -> d2 -> d3 -> d4 -> d5 -> leaf.`,
    )
  })

  it('refuses a circle closed from inside a loop body, naming the chain, exit 2', async () => {
    // `main`'s loop body calls `back`, which calls `main` again.
    const back = caller('back', 'main', 'n')
    const result = await wardflow(['run', await file('circle', loopCaller('back'), back)])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('main -> back -> main')
  })

  it('a failure deep inside fails the calling node and the run, exit 1, naming where', async () => {
    // A loop (failing its item) inside a sub-flow inside a loop body.
    const strict = inBody(
      flow()
        .meta('strict', 'Strict')
        .node('each', 'loop', { items: '["x"]' })
        .node('f', 'http', { url: 'http://127.0.0.1:9/{{each.item}}' })
        .node('out', 'output', { values: { n: '{{each.count}}' } })
        .edge('each', 'out')
        .build(),
      'each',
      'f',
    )
    const path = await file('failing', loopCaller('strict'), strict)
    const log = await wardflow(['run', path])
    expect(log.code).toBe(1)
    expect(log.stdout).toMatch(/ {2}↳ Call \(call\) \[outer #0\] › each #0 › f failed \[HTTP_NETWORK\]/)
    expect(log.stdout).toMatch(/✗ Call \(call\) \[outer #0\] failed \[SUBFLOW_FAILED\]/)
    expect(log.stdout).toMatch(/✗ outer failed/)
    expect(log.stdout).toContain('Run failed')
    // `continue` keeps the loop going: the same flow with failer's setting succeeds.
    const ok = await wardflow(['run', await file('continuing', caller('main', 'failer', 'n'), failer)])
    expect(ok.code).toBe(0)
  })
})
