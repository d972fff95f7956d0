import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { createWorkflowIoService } from '../../src/app/files/importExportService.ts'
import type { FlowDocument } from '../../src/engine/index.ts'
import { loadFlow, parseWorkflowText, saveFlow, type WardflowDb } from '../../src/storage/index.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { freshDb } from '../storage/support.ts'
import { downloads, fakeFlows, resetStores, type Downloads } from './settingsSupport.ts'

beforeEach(resetStores)

const FIXTURE = resolve(import.meta.dirname, '../fixtures/cli/subflow.wardflow.json')

function service(db: WardflowDb, files: Downloads = downloads()) {
  let n = 0
  return createWorkflowIoService({
    db,
    flows: fakeFlows(),
    download: files.download,
    now: () => Date.parse('2026-05-01T10:00:00.000Z'),
    newFlowId: () => `imported_${(n += 1)}`,
    translate: (key, values) => (key === 'import.copyName' ? `${String(values?.['name'])} (copy)` : key),
  })
}

async function fixture() {
  const text = await readFile(FIXTURE, 'utf8')
  const parsed = parseWorkflowText(text)
  if (!parsed.ok) throw new Error('fixture refused')
  return { text, ...parsed }
}

const calls = (doc: FlowDocument | undefined) =>
  doc?.nodes.filter((n) => n.type === 'subflow').map((n) => n.data.config['flow'])

describe('importing a workflow file with sub-flows', () => {
  it('saves the carried flows under their ids when none is saved', async () => {
    const db = await freshDb()
    const { text } = await fixture()
    const outcome = await service(db).importText(text, 'caller.wardflow.json')
    expect(outcome).toMatchObject({ status: 'imported', flowId: 'imported_1' })
    expect((await loadFlow(db, 'shout'))?.doc.metadata.name).toBe('Shout')
    expect(calls((await loadFlow(db, 'shout'))?.doc)).toEqual(['echo'])
    expect((await loadFlow(db, 'echo'))?.doc.nodes.map((n) => n.id)).toEqual(['in', 'o'])
    expect(calls((await loadFlow(db, 'imported_1'))?.doc)).toEqual(['shout'])
  })

  it('reuses a saved flow that is the same, and copies one that differs, rewriting the calls', async () => {
    const db = await freshDb()
    const { text, subflows } = await fixture()
    const [shout, echo] = subflows as [FlowDocument, FlowDocument]
    // `echo` is saved as it is in the file; a different flow is saved under the id `shout`.
    await saveFlow(db, echo)
    const mine = { ...echo, metadata: { ...echo.metadata, id: 'shout', name: 'My own shout' } }
    await saveFlow(db, mine)
    const outcome = await service(db).importText(text, 'caller.wardflow.json')
    expect(outcome).toMatchObject({ status: 'imported' })
    // The person's own flow is untouched; the file's `shout` became a copy with a new id.
    expect((await loadFlow(db, 'shout'))?.doc.metadata.name).toBe('My own shout')
    const copy = (await loadFlow(db, 'imported_2'))?.doc
    expect(copy?.metadata.name).toBe('Shout (copy)')
    expect(copy?.nodes.map((n) => n.id)).toEqual(shout.nodes.map((n) => n.id))
    // The copy still calls the reused `echo`; the imported flow calls the copy.
    expect(calls(copy)).toEqual(['echo'])
    const main = (await loadFlow(db, 'imported_1'))?.doc
    expect(calls(main)).toEqual(['imported_2'])
    expect((await db.flows.toArray()).map((r) => r.id).sort()).toEqual([
      'echo',
      'imported_1',
      'imported_2',
      'shout',
    ])
  })

  it('exports the open flow with every flow it calls, and the file imports into a fresh database', async () => {
    const db = await freshDb()
    const { doc, subflows } = await fixture()
    for (const sub of subflows) await saveFlow(db, sub)
    flowStore.getState().actions.load(doc)
    const files = downloads()
    await service(db, files).exportWorkflow()
    const file = JSON.parse(files.files[0]?.text ?? '{}') as {
      version: number
      subflows?: Array<{ metadata: { id: string } }>
    }
    expect(file.version).toBe(2)
    expect(file.subflows?.map((f) => f.metadata.id)).toEqual(['shout', 'echo'])
    const other = await freshDb()
    await service(other).importText(files.files[0]?.text ?? '', 'again.wardflow.json')
    expect((await loadFlow(other, 'echo'))?.doc.nodes).toEqual(subflows[1]?.nodes)
  })
})
