/**
 * Two tabs, one flow (issue 16, item 4) and the unsaved-changes journal (issue 23, item 8):
 * two tabs are two flow stores with their own autosave and tab sync over one fake-indexeddb
 * database and an in-memory stand-in for BroadcastChannel.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { startAutosave, type Autosave } from '../../src/app/core/autosave.ts'
import { mergeFlows } from '../../src/app/core/flowMerge.ts'
import { createTabSync, type TabSync } from '../../src/app/core/tabSync.ts'
import { FlowError, type FlowDocument } from '../../src/engine/index.ts'
import { initI18n } from '../../src/i18n/index.ts'
import { loadFlow, saveFlow, type WardflowDb } from '../../src/storage/index.ts'
import { createFlowStore, type FlowStore } from '../../src/store/flowStore.ts'
import { createLibraryStore } from '../../src/store/libraryStore.ts'
import { createNoticeStore } from '../../src/store/noticeStore.ts'
import { config, freshDb } from '../storage/support.ts'
import { doc, node } from '../store/helpers.ts'

beforeAll(async () => {
  await initI18n('en')
})

type Listener = ((event: MessageEvent) => void) | null

/** BroadcastChannel within one test: a message reaches every other member, a task later. */
class Bus {
  readonly members: FakeChannel[] = []
}
class FakeChannel {
  onmessage: Listener = null
  constructor(private readonly bus: Bus) {
    bus.members.push(this)
  }
  postMessage(data: unknown): void {
    for (const member of this.bus.members)
      if (member !== this) setTimeout(() => member.onmessage?.({ data } as MessageEvent), 0)
  }
  close(): void {}
}

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  }
}

interface Tab {
  flows: FlowStore
  sync: TabSync
  autosave: Autosave
  notices: ReturnType<typeof createNoticeStore>
}

const FLOW_ID = 'flow_shared'

function base(): FlowDocument {
  const d = doc([node('in', 'input', 0, 0, config('input'))])
  return { ...d, metadata: { ...d.metadata, id: FLOW_ID, name: 'Shared' } }
}

async function openTab(db: WardflowDb, bus: Bus): Promise<Tab> {
  const flows = createFlowStore()
  const notices = createNoticeStore()
  const sync = createTabSync({
    db: async () => db,
    flows,
    library: createLibraryStore(),
    notices,
    journalStore: memoryStorage(),
    channel: new FakeChannel(bus),
  })
  const autosave = startAutosave({
    store: flows,
    save: (d) => sync.save(d),
    delayMs: () => 200,
    onStatus: () => undefined,
    target: null,
    documentTarget: null,
  })
  sync.connect(autosave)
  const loaded = await loadFlow(db, FLOW_ID)
  if (!loaded) throw new Error('no shared flow')
  sync.opened(FLOW_ID, loaded.doc, loaded.revision)
  flows.getState().actions.load(loaded.doc)
  return { flows, sync, autosave, notices }
}

function addTemplate(tab: Tab, x: number): void {
  tab.flows.getState().actions.addNode({
    type: 'template',
    position: { x, y: 0 },
    label: `at ${x}`,
    config: config('template'),
  })
}

async function settle(...tabs: Tab[]): Promise<void> {
  for (let round = 0; round < 6; round += 1) {
    for (const tab of tabs) await tab.autosave.flush()
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('two tabs editing one flow', () => {
  it('keeps a node added in each tab at the same time, though both were called template_1', async () => {
    const db = await freshDb()
    await saveFlow(db, base())
    const bus = new Bus()
    const one = await openTab(db, bus)
    const two = await openTab(db, bus)
    addTemplate(one, 100)
    addTemplate(two, 400)
    expect(one.flows.getState().nodes.at(-1)?.id).toBe(two.flows.getState().nodes.at(-1)?.id)
    await settle(one, two)
    const stored = await loadFlow(db, FLOW_ID)
    const labels = (d: { nodes: FlowDocument['nodes'] }) => d.nodes.map((n) => n.data.label).sort()
    expect(labels(stored!.doc)).toEqual(['at 100', 'at 400', 'in'])
    expect(labels(one.flows.getState())).toEqual(['at 100', 'at 400', 'in'])
    expect(labels(two.flows.getState())).toEqual(['at 100', 'at 400', 'in'])
    expect(one.notices.getState().banner).toBeNull()
    expect(two.notices.getState().banner).toBeNull()
  })

  it('keeps the other version as a copy, and says so, when both tabs changed one node', async () => {
    const db = await freshDb()
    await saveFlow(db, base())
    const bus = new Bus()
    const one = await openTab(db, bus)
    const two = await openTab(db, bus)
    one.flows.getState().actions.setLabel('in', 'One')
    two.flows.getState().actions.setLabel('in', 'Two')
    await settle(one, two)
    const banners = [one, two].map((t) => t.notices.getState().banner).filter((b) => b !== null)
    expect(banners).toHaveLength(1)
    expect(banners[0]).toMatchObject({ code: 'FLOW_CONFLICT', messageKey: 'issues:tabs.conflict' })
    const all = await db.flows.toArray()
    const labels = all.map((row) => (row.doc as FlowDocument).nodes[0]?.data.label).sort()
    expect(labels).toEqual(['One', 'Two'])
  })

  it('storage refuses a save over a revision the tab has not seen, and changes nothing', async () => {
    const db = await freshDb()
    const { revision } = await saveFlow(db, base())
    await saveFlow(db, { ...base(), nodes: [] }, { baseRevision: revision })
    const error = await saveFlow(db, base(), { baseRevision: revision }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FlowError)
    expect((error as FlowError).code).toBe('FLOW_CONFLICT')
    const stored = await loadFlow(db, FLOW_ID)
    expect(stored?.doc.nodes).toEqual([])
    expect(stored?.revision).toBe(revision + 1)
  })
})

describe('the unsaved-changes journal', () => {
  it('brings back edits journalled when the page went away, and writes them', async () => {
    const db = await freshDb()
    const { revision } = await saveFlow(db, base())
    const journal = memoryStorage()
    const sync = createTabSync({
      db: async () => db,
      flows: createFlowStore(),
      library: createLibraryStore(),
      notices: createNoticeStore(),
      journalStore: journal,
      channel: null,
    })
    const edited: FlowDocument = {
      ...base(),
      nodes: [{ ...base().nodes[0]!, data: { ...base().nodes[0]!.data, label: 'typed' } }],
    }
    sync.opened(FLOW_ID, base(), revision)
    sync.journal(edited)
    const loaded = await loadFlow(db, FLOW_ID)
    const shown = await sync.recover(FLOW_ID, loaded!)
    expect(shown.doc.nodes[0]?.data.label).toBe('typed')
    expect((await loadFlow(db, FLOW_ID))?.doc.nodes[0]?.data.label).toBe('typed')
    expect(journal.map.size).toBe(0)
  })

  it('keeps journalled edits as a copy when another tab saved the flow after them', async () => {
    const db = await freshDb()
    const { revision } = await saveFlow(db, base())
    const journal = memoryStorage()
    const notices = createNoticeStore()
    const sync = createTabSync({
      db: async () => db,
      flows: createFlowStore(),
      library: createLibraryStore(),
      notices,
      journalStore: journal,
      channel: null,
    })
    sync.opened(FLOW_ID, base(), revision)
    sync.journal({ ...base(), nodes: [] })
    await saveFlow(db, { ...base(), metadata: { ...base().metadata, name: 'Renamed elsewhere' } })
    const shown = await sync.recover(FLOW_ID, (await loadFlow(db, FLOW_ID))!)
    expect(shown.doc.metadata.name).toBe('Renamed elsewhere')
    expect(notices.getState().banner).toMatchObject({
      code: 'FLOW_CONFLICT',
      messageKey: 'issues:tabs.recoveredCopy',
    })
    expect(await db.flows.count()).toBe(2)
  })
})

describe('mergeFlows', () => {
  it('keeps two equal nodes that both tabs added under one id as two nodes', () => {
    const added = node('template_1', 'template', 10, 10, {})
    const { doc: merged, conflicts } = mergeFlows(doc([]), doc([added]), doc([{ ...added }]))
    expect(merged.nodes.map((n) => n.id)).toEqual(['template_1', 'template_2'])
    expect(merged.nodes[1]?.position).not.toEqual(added.position)
    expect(conflicts).toEqual([])
  })

  it('takes each side’s changes, removals included', () => {
    const a = node('a', 'input', 0, 0, {})
    const b = node('b', 'input', 0, 0, {})
    const baseDoc = doc([a, b])
    const mine = doc([{ ...a, position: { x: 5, y: 5 } }, b])
    const theirs = doc([a])
    const { doc: merged, conflicts } = mergeFlows(baseDoc, mine, theirs)
    expect(merged.nodes.map((n) => [n.id, n.position.x])).toEqual([['a', 5]])
    expect(conflicts).toEqual([])
  })

  it("keeps the flow's run budget and reuse setting changed in the other tab, and this tab's own change", () => {
    const base = doc([])
    const mine = { ...doc([]), metadata: { ...base.metadata, name: 'Renamed here' } }
    const theirs = {
      ...doc([]),
      metadata: { ...base.metadata, limits: { maxRunTokens: 5000 }, reuseUnchanged: true },
    }
    const merged = mergeFlows(base, mine, theirs).doc.metadata
    expect(merged).toMatchObject({
      name: 'Renamed here',
      limits: { maxRunTokens: 5000 },
      reuseUnchanged: true,
    })
    const cleared = mergeFlows(
      theirs,
      { ...theirs, metadata: { ...theirs.metadata, limits: undefined } },
      theirs,
    )
    expect(cleared.doc.metadata.limits).toBeUndefined()
  })
})
