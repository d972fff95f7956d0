import { beforeEach, describe, expect, it } from 'vitest'
import { createWorkflowIoService } from '../../src/app/files/importExportService.ts'
import { listFlows, loadFlow, saveFlow, type WardflowDb } from '../../src/storage/index.ts'
import { flowStore, selectDocument } from '../../src/store/flowStore.ts'
import { libraryStore } from '../../src/store/libraryStore.ts'
import { noticeStore } from '../../src/store/noticeStore.ts'
import { importUiStore, type ConflictChoice } from '../../src/store/importUiStore.ts'
import { freshDb, sampleFlow } from '../storage/support.ts'
import { downloads, fakeFlows, resetStores, type Downloads, type FakeFlows } from './settingsSupport.ts'

beforeEach(resetStores)

const NOW = Date.parse('2026-05-01T10:00:00.000Z')

function service(db: WardflowDb, flows: FakeFlows, files: Downloads = downloads()) {
  let n = 0
  return createWorkflowIoService({
    db,
    flows,
    download: files.download,
    now: () => NOW,
    newFlowId: () => `imported_${(n += 1)}`,
    translate: (key, values) => `${key} ${JSON.stringify(values ?? {})}`,
  })
}

/** Answers the next id-conflict question with `choice`. */
function answerConflict(choice: ConflictChoice): () => void {
  return importUiStore.subscribe((state) => {
    if (state.conflict !== null) state.answerConflict(state.conflict.id, choice)
  })
}

async function snapshot(db: WardflowDb) {
  return JSON.stringify(await db.flows.toArray())
}

describe('workflow export', () => {
  it('downloads the open flow as <name>.wardflow.json', async () => {
    const db = await freshDb()
    const files = downloads()
    flowStore.getState().actions.load(sampleFlow('flow_a', 'Otter facts'))
    await service(db, fakeFlows(), files).exportWorkflow()
    expect(files.files).toHaveLength(1)
    expect(files.files[0]!.fileName).toBe('Otter facts.wardflow.json')
    expect(JSON.parse(files.files[0]!.text)).toMatchObject({ format: 'wardflow.workflow', version: 2 })
  })

  it('export then import gives back the same flow as a new flow', async () => {
    const db = await freshDb()
    const files = downloads()
    const flows = fakeFlows()
    const original = sampleFlow('flow_a', 'Round trip')
    flowStore.getState().actions.load(original)
    const io = service(db, flows, files)
    await io.exportWorkflow()
    const outcome = await io.importText(files.files[0]!.text, files.files[0]!.fileName)
    expect(outcome).toEqual({ status: 'imported', flowId: 'imported_1', replaced: false })
    const stored = (await loadFlow(db, 'imported_1'))!.doc
    expect(stored.nodes).toEqual(original.nodes)
    expect(stored.edges).toEqual(original.edges)
    expect(stored.viewport).toEqual(original.viewport)
    expect(stored.metadata).toMatchObject({
      id: 'imported_1',
      name: 'Round trip',
      createdAt: new Date(NOW).toISOString(),
    })
    expect(flows.opened).toEqual(['imported_1'])
    expect(libraryStore.getState().flows.map((f) => f.id)).toEqual(['imported_1'])
  })
})

describe('workflow import refusals', () => {
  it('lists every problem with its JSON path in the banner and changes nothing', async () => {
    const db = await freshDb()
    await saveFlow(db, sampleFlow('flow_a', 'Kept'))
    flowStore.getState().actions.load(sampleFlow('flow_a', 'Kept'))
    const before = await snapshot(db)
    const openBefore = selectDocument(flowStore.getState())
    const file = JSON.parse(
      (await import('../../src/storage/index.ts')).exportWorkflowText(sampleFlow('flow_x', 'Bad')),
    )
    file.nodes[2].data.config.temperature = 'very hot'
    file.nodes[1].data.config.template = 42
    const flows = fakeFlows()
    const outcome = await service(db, flows).importText(JSON.stringify(file), 'bad.wardflow.json')
    expect(outcome).toEqual({ status: 'refused' })
    const banner = noticeStore.getState().banner
    expect(banner?.code).toBe('IMPORT_INVALID')
    const paths = banner?.problems?.map((p) => p.path) ?? []
    expect(paths).toContain('nodes[2].data.config.temperature')
    expect(paths).toContain('nodes[1].data.config.template')
    expect(await snapshot(db)).toBe(before)
    expect(selectDocument(flowStore.getState())).toEqual(openBefore)
    expect(flows.opened).toEqual([])
    expect(flows.flushed).toBe(0)
  })

  it('refuses an edge to a node that does not exist, naming the edge', async () => {
    const db = await freshDb()
    const file = JSON.parse(
      (await import('../../src/storage/index.ts')).exportWorkflowText(sampleFlow('flow_x', 'Bad')),
    )
    file.edges.push({ id: 'e_ghost', source: 'llm_1', target: 'ghost' })
    await service(db, fakeFlows()).importText(JSON.stringify(file), 'ghost.json')
    const paths = noticeStore.getState().banner?.problems?.map((p) => p.path) ?? []
    expect(paths.some((p) => p.startsWith('edges[3]'))).toBe(true)
    expect(await db.flows.count()).toBe(0)
  })

  it('refuses text that is not JSON with a line and column', async () => {
    const db = await freshDb()
    await service(db, fakeFlows()).importText('{"format": "wardflow.workflow",\n  nodes: []}', 'x.json')
    expect(noticeStore.getState().banner?.problems?.[0]?.message).toMatch(/line 2/)
    expect(await db.flows.count()).toBe(0)
  })

  it('refuses a settings file with a hint to import it under Settings', async () => {
    const db = await freshDb()
    await service(db, fakeFlows()).importText('{"format":"wardflow.settings","version":1}', 's.json')
    const problem = noticeStore.getState().banner?.problems?.[0]
    expect(problem?.path).toBe('format')
    expect(problem?.message).toMatch(/Settings/)
  })

  it('refuses a file bigger than the import limit before reading it', async () => {
    const db = await freshDb()
    const { IMPORT_MAX_FILE_BYTES } = await import('../../src/defaults.ts')
    const big = new File([new Uint8Array(IMPORT_MAX_FILE_BYTES + 1)], 'huge.json')
    await service(db, fakeFlows()).importFile(big)
    expect(noticeStore.getState().banner?.code).toBe('IMPORT_INVALID')
    expect(await db.flows.count()).toBe(0)
  })
})

describe('workflow import: file encodings', () => {
  it('imports a UTF-16 file (either byte order) and a UTF-8 file with a BOM, decoded as the CLI does', async () => {
    const { exportWorkflowText } = await import('../../src/storage/index.ts')
    const text = exportWorkflowText(sampleFlow('flow_u', 'Ünïcode ✓'))
    const le = Buffer.from(`\ufeff${text}`, 'utf16le')
    const files = [
      new File([le], 'le.wardflow.json'),
      new File([Buffer.from(le).swap16()], 'be.wardflow.json'),
      new File([`\ufeff${text}`], 'bom.wardflow.json'),
    ]
    for (const file of files) {
      const db = await freshDb()
      await service(db, fakeFlows()).importFile(file)
      expect(noticeStore.getState().banner).toBeNull()
      expect((await listFlows(db)).map((f) => f.name)).toEqual(['Ünïcode ✓'])
    }
  })
})

describe('workflow import: id already saved', () => {
  async function withSaved() {
    const db = await freshDb()
    const saved = sampleFlow('flow_a', 'Mine')
    await saveFlow(db, saved)
    const file = (await import('../../src/storage/index.ts')).exportWorkflowText({
      ...saved,
      metadata: { ...saved.metadata, name: 'Theirs' },
      nodes: saved.nodes.slice(0, 2),
      edges: saved.edges.slice(0, 1),
    })
    return { db, file }
  }

  it('import as copy keeps the saved flow and adds a new one', async () => {
    const { db, file } = await withSaved()
    const stop = answerConflict('copy')
    const outcome = await service(db, fakeFlows()).importText(file, 'theirs.json')
    stop()
    expect(outcome).toMatchObject({ status: 'imported', flowId: 'imported_1' })
    expect((await loadFlow(db, 'flow_a'))!.doc.metadata.name).toBe('Mine')
    expect((await loadFlow(db, 'imported_1'))!.doc.metadata.name).toMatch(/^import\.copyName .*Theirs/)
  })

  it('replace overwrites the saved flow only after the person chose it, and reloads it when open', async () => {
    const { db, file } = await withSaved()
    flowStore.getState().actions.load((await loadFlow(db, 'flow_a'))!.doc)
    const stop = answerConflict('replace')
    const flows = fakeFlows()
    const outcome = await service(db, flows).importText(file, 'theirs.json')
    stop()
    expect(outcome).toEqual({ status: 'imported', flowId: 'flow_a', replaced: true })
    expect((await listFlows(db)).map((f) => f.id)).toEqual(['flow_a'])
    expect((await loadFlow(db, 'flow_a'))!.doc.nodes).toHaveLength(2)
    expect(flowStore.getState().nodes).toHaveLength(2)
    expect(flows.flushed).toBe(1)
  })

  it('cancel changes nothing', async () => {
    const { db, file } = await withSaved()
    const before = await snapshot(db)
    const stop = answerConflict('cancel')
    const outcome = await service(db, fakeFlows()).importText(file, 'theirs.json')
    stop()
    expect(outcome).toEqual({ status: 'cancelled' })
    expect(await snapshot(db)).toBe(before)
  })
})

describe('PatchCat import', () => {
  it('imports a PatchCat workflow and reports the mapping and the unsupported placeholders', async () => {
    const db = await freshDb()
    const patchcat = {
      version: '1.0.0',
      metadata: { id: 'pc-1', name: 'Routing', tags: [] },
      viewport: { x: 0, y: 0, zoom: 1 },
      nodes: [
        {
          id: 'input_ticket',
          type: 'input',
          position: { x: 0, y: 0 },
          data: { label: 'Ticket', inputs: { query: 'hi' } },
        },
        {
          id: 'cond',
          type: 'condition',
          position: { x: 200, y: 0 },
          data: { label: 'Router', config: { cases: [] } },
        },
        {
          id: 'prompt_a',
          type: 'prompt',
          position: { x: 400, y: 0 },
          data: { label: 'Prompt', inputs: { template: 'Answer {{input_ticket.query}}' } },
        },
      ],
      edges: [
        { id: 'e1', source: 'input_ticket', target: 'cond' },
        { id: 'e2', source: 'cond', target: 'prompt_a' },
      ],
    }
    const outcome = await service(db, fakeFlows()).importText(JSON.stringify(patchcat), 'routing.json')
    expect(outcome.status).toBe('imported')
    const report = importUiStore.getState().report
    expect(report).toMatchObject({ source: 'patchcat', nodeCount: 3, edgeCount: 2, fileName: 'routing.json' })
    expect(report?.unsupported).toEqual([{ id: 'cond', originalType: 'condition' }])
    expect(report?.notes.length).toBeGreaterThan(0)
    const doc = (await loadFlow(db, 'imported_1'))!.doc
    expect(doc.nodes.find((n) => n.id === 'prompt_a')?.type).toBe('template')
  })
})
