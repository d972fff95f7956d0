/**
 * Node ids come from files, and `constructor`, `toString` or `__proto__` are valid ids. Every
 * Object.prototype name, and random ids, go through what a flow meets: import, a run with real
 * executors (Input -> Template -> Code in the QuickJS worker-thread sandbox -> Output), the run
 * record (built, stored in IndexedDB, read back), the history replay through the run store's
 * reducer, the flow stored and reopened, and export. Each must keep every id as a plain key.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replayRecord } from '../../src/app/runs/runHistory.ts'
import { RunRecorder } from '../../src/app/runs/runRecorder.ts'
import { NODE_ID_PATTERN } from '../../src/defaults.ts'
import { runFlow, type FlowDocument, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { createNodeCodeRunner } from '../../src/sandbox/node-runner.ts'
import type { SandboxCodeRunner } from '../../src/sandbox/pool.ts'
import { loadFlow, saveFlow } from '../../src/storage/repositories/flows.ts'
import { getRun, saveRun } from '../../src/storage/repositories/runs.ts'
import { exportWorkflowText, parseWorkflowText } from '../../src/storage/workflowFile.ts'
import { createRunStore } from '../../src/store/runStore.ts'
import { freshDb } from '../storage/support.ts'
import { flow, testContext } from '../support/flowBuilders.ts'

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype)

let runner: SandboxCodeRunner
beforeAll(async () => {
  runner = createNodeCodeRunner()
  await runner.warm()
})
afterAll(() => runner.dispose())

interface Ids {
  input: string
  template: string
  code: string
  output: string
}

/** Input -> Template -> Code -> Output, the Code node reporting the keys of its `inputs`. */
function hostileFlow(ids: Ids, word: string): FlowDocument {
  return flow()
    .meta(`flow-${ids.input}`)
    .node(ids.input, 'input', { configVersion: 1, values: { q: word } })
    .node(ids.template, 'template', { configVersion: 1, template: `{{${ids.input}.q}}!` })
    .node(ids.code, 'code', {
      configVersion: 1,
      code: `const keys = Object.keys(inputs); return { keys, text: inputs[keys[0]].text }`,
    })
    .node(ids.output, 'output', { configVersion: 1, values: { r: `{{${ids.code}.result.text}}` } })
    .chain(ids.input, ids.template, ids.code, ids.output)
    .build()
}

async function run(doc: FlowDocument): Promise<RunEvent[]> {
  const { ctx } = testContext({ codeRunner: runner, runId: `run-${doc.metadata.id}` })
  const events: RunEvent[] = []
  for await (const event of runFlow(doc, engineRegistry, ctx)) events.push(event)
  return events
}

async function expectWholeLife(ids: Ids, word: string): Promise<void> {
  const all = Object.values(ids)
  const doc = hostileFlow(ids, word)

  // Import: the exported file reads back as the same flow.
  const text = exportWorkflowText(doc)
  const imported = parseWorkflowText(text)
  if (!imported.ok) throw new Error(JSON.stringify(imported.problems))
  expect(imported.doc).toEqual(doc)
  expect((JSON.parse(text) as { nodes: Array<{ id: string }> }).nodes.map((n) => n.id)).toEqual(all)

  // Run with the real executors and the real sandbox.
  const events = await run(imported.doc)
  const finished = events.filter((e) => e.type === 'nodeFinish').map((e) => e.nodeId)
  expect(events.filter((e) => e.type === 'nodeError')).toEqual([])
  expect(finished.sort()).toEqual([...all].sort())
  const codeStart = events.find((e) => e.type === 'nodeStart' && e.nodeId === ids.code)
  expect(codeStart?.type === 'nodeStart' && Object.keys(codeStart.inputs)).toEqual([ids.template])
  const outputOf = (id: string): Record<string, unknown> | undefined => {
    const e = events.find((x) => x.type === 'nodeFinish' && x.nodeId === id)
    return e?.type === 'nodeFinish' ? e.output : undefined
  }
  expect(outputOf(ids.code)?.result).toEqual({ keys: [ids.template], text: `${word}!` })
  expect(outputOf(ids.output)).toEqual({ r: `${word}!` })

  // The run record: built while streaming, stored, read back, replayed as the history does.
  const recorder = new RunRecorder(doc.metadata.id)
  for (const event of events) recorder.push(event)
  const record = recorder.record()
  if (record === undefined) throw new Error('no record')
  for (const id of all)
    expect(Object.hasOwn(record.outputs, id) && Object.hasOwn(record.timings, id)).toBe(true)
  const db = await freshDb()
  await saveRun(db, record)
  const stored = await getRun(db, record.id)
  if (stored === undefined) throw new Error('run record not stored')
  expect(Object.keys(stored.outputs).sort()).toEqual([...all].sort())
  const view = replayRecord(stored)
  for (const id of all) {
    expect(Object.hasOwn(view.nodes, id)).toBe(true)
    expect(view.nodes[id]?.status).toBe('success')
  }
  expect(Object.keys(view.nodes[ids.code]?.inputs ?? {})).toEqual([ids.template])
  expect(view.nodes[ids.output]?.output).toEqual({ r: `${word}!` })
  expect(view.run).toMatchObject({ status: 'success', done: all.length, total: all.length })

  // The live store applies the same events in batches.
  const store = createRunStore()
  store.getState().actions.applyEvents(events.slice(0, 3))
  store.getState().actions.applyEvents(events.slice(3))
  for (const id of all) expect(store.getState().nodes[id]?.status).toBe('success')

  // Restart: the flow stored and reopened is the same flow.
  await saveFlow(db, imported.doc)
  const reopened = await loadFlow(db, doc.metadata.id)
  expect(reopened?.doc).toEqual(doc)
}

/** Four distinct ids for the four roles. */
const idPool = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/))
const fourIds = fc
  .uniqueArray(idPool, { minLength: 4, maxLength: 4 })
  .map(([input, template, code, output]): Ids => ({
    input: input as string,
    template: template as string,
    code: code as string,
    output: output as string,
  }))

describe('node ids that are Object.prototype names', () => {
  it('every Object.prototype name is a valid node id', () => {
    expect(PROTOTYPE_NAMES.length).toBeGreaterThan(10)
    for (const name of PROTOTYPE_NAMES) expect(name).toMatch(NODE_ID_PATTERN)
  })

  it('each Object.prototype name, in each of the four roles, lives through import, run, history, reopen and export', async () => {
    for (const [i, name] of PROTOTYPE_NAMES.entries()) {
      // The name in every role once, beside ordinary ids (and other prototype names).
      const others = PROTOTYPE_NAMES.filter((n) => n !== name)
      const pick = (k: number): string => others[(i + k) % others.length] as string
      await expectWholeLife({ input: name, template: 'tpl', code: pick(1), output: 'out' }, 'a')
      await expectWholeLife({ input: 'in', template: name, code: 'js', output: pick(2) }, 'b')
      await expectWholeLife({ input: pick(3), template: 't', code: name, output: 'o' }, 'c')
      await expectWholeLife({ input: 'i', template: pick(4), code: 'c', output: name }, 'd')
    }
  }, 120_000)

  it('random ids mixed with prototype names (60 flows)', async () => {
    await fc.assert(
      fc.asyncProperty(fourIds, fc.stringMatching(/^[a-z ]{1,12}$/), (ids, word) =>
        expectWholeLife(ids, word),
      ),
      { numRuns: 60 },
    )
  }, 120_000)
})
