// @vitest-environment jsdom
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp, type App } from '../../src/app/core/createApp.ts'
import { initI18n } from '../../src/i18n/index.ts'
import { getNodeDefinition } from '../../src/nodes/registry.ts'
import { loadFlow, type WardflowDb } from '../../src/storage/index.ts'
import { createFlowStore, type FlowStore } from '../../src/store/flowStore.ts'
import { libraryStore } from '../../src/store/libraryStore.ts'
import { noticeStore } from '../../src/store/noticeStore.ts'
import { freshDb } from '../storage/support.ts'

beforeAll(async () => {
  await initI18n('en')
})

beforeEach(() => {
  localStorage.clear()
  noticeStore.getState().dismissError()
  libraryStore.setState({ flows: [], ready: false, saveStatus: 'idle' })
})

/** A "page load": a fresh store and app over the same database. */
async function boot(db: WardflowDb): Promise<{ app: App; flows: FlowStore }> {
  const flows = createFlowStore()
  const app = createApp({ flows, openDb: async () => db })
  await app.start()
  return { app, flows }
}

/** What the palette creates (the definition's defaults), with a few settings changed. */
function config(type: string, patch: Record<string, unknown>): Record<string, unknown> {
  return { ...(getNodeDefinition(type)?.defaultConfig() as Record<string, unknown>), ...patch }
}

describe('flows kept safe', () => {
  it('creates and saves an untitled flow on first start', async () => {
    const db = await freshDb()
    const { app, flows } = await boot(db)
    const id = flows.getState().flowId
    expect(id).not.toBeNull()
    expect(flows.getState().metadata?.name).toBe('Untitled flow')
    expect(libraryStore.getState().flows.map((f) => f.id)).toEqual([id])
    expect(await loadFlow(db, id ?? '')).toBeDefined()
    app.stop()
  })

  it('restores every flow exactly after a reload and reopens the last open one', async () => {
    const db = await freshDb()
    const first = await boot(db)
    const { actions } = first.flows.getState()
    const a = actions.addNode({
      type: 'input',
      position: { x: 16, y: 32 },
      label: 'Question',
      config: config('input', { values: { q: 'hi' } }),
    })
    const b = actions.addNode({
      type: 'llm',
      position: { x: 320, y: 32 },
      label: 'Answer',
      config: config('llm', { prompt: 'Say {{input_1.q}}', temperature: 0.4, maxTokens: 200 }),
    })
    if (a === null || b === null) throw new Error('the flow is read-only')
    actions.connect({ source: a, target: b, sourceHandle: 'out', targetHandle: 'in' })
    actions.setViewport({ x: -40, y: 12.5, zoom: 0.75 })
    const firstId = first.flows.getState().flowId
    const expected = { nodes: first.flows.getState().nodes, edges: first.flows.getState().edges }
    // A second flow, opened last... then the first one again: the first is the last open flow.
    await first.app.services.flows.create('Second')
    first.flows.getState().actions.addNode({
      type: 'template',
      position: { x: 0, y: 0 },
      label: 'T',
      config: { configVersion: 1, template: 'x' },
    })
    await first.app.services.flows.open(firstId ?? '')
    await first.app.services.flows.flush()
    first.app.stop()

    const second = await boot(db)
    const s = second.flows.getState()
    expect(s.flowId).toBe(firstId)
    expect(s.nodes).toEqual(expected.nodes)
    expect(s.edges).toEqual(expected.edges)
    expect(s.viewport).toEqual({ x: -40, y: 12.5, zoom: 0.75 })
    expect(
      libraryStore
        .getState()
        .flows.map((f) => f.name)
        .sort(),
    ).toEqual(['Second', 'Untitled flow'])
    const other = libraryStore.getState().flows.find((f) => f.name === 'Second')
    await second.app.services.flows.open(other?.id ?? '')
    expect(second.flows.getState().nodes.map((n) => n.data.config['template'])).toEqual(['x'])
    second.app.stop()
  })

  it('renames, duplicates and deletes flows', async () => {
    const db = await freshDb()
    const { app, flows } = await boot(db)
    const service = app.services.flows
    const original = flows.getState().flowId ?? ''
    flows.getState().actions.addNode({
      type: 'template',
      position: { x: 0, y: 0 },
      label: 'T',
      config: { configVersion: 1, template: 'copy me' },
    })
    await service.rename(original, 'Research')
    expect((await loadFlow(db, original))?.doc.metadata.name).toBe('Research')
    await service.duplicate(original)
    const copyId = flows.getState().flowId ?? ''
    expect(copyId).not.toBe(original)
    expect(flows.getState().metadata?.name).toBe('Research (copy)')
    expect(flows.getState().nodes[0]?.data.config['template']).toBe('copy me')
    await service.rename(original, 'Renamed while closed')
    expect(libraryStore.getState().flows.find((f) => f.id === original)?.name).toBe('Renamed while closed')
    await service.remove(copyId)
    expect(await loadFlow(db, copyId)).toBeUndefined()
    expect(flows.getState().flowId).toBe(original)
    expect(libraryStore.getState().flows.map((f) => f.id)).toEqual([original])
    await service.remove(original)
    // Deleting the last flow leaves a fresh empty one open, never nothing.
    expect(flows.getState().flowId).not.toBe(original)
    expect(flows.getState().nodes).toEqual([])
    expect(libraryStore.getState().flows).toHaveLength(1)
    app.stop()
  })

  it('shows a storage-full banner and keeps the last saved version when a save fails', async () => {
    const db = await freshDb()
    const { app, flows } = await boot(db)
    const id = flows.getState().flowId ?? ''
    flows.getState().actions.addNode({
      type: 'template',
      position: { x: 0, y: 0 },
      label: 'Kept',
      config: { configVersion: 1, template: 'v1' },
    })
    await app.services.flows.flush()
    const quotaExceeded = () =>
      Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
    const full = vi.spyOn(db.flows, 'put').mockImplementation(quotaExceeded as unknown as typeof db.flows.put)
    flows.getState().actions.setConfigField(flows.getState().nodes[0]?.id ?? '', 'template', 'v2')
    await app.services.flows.flush()
    expect(noticeStore.getState().banner?.code).toBe('STORAGE_QUOTA')
    expect(libraryStore.getState().saveStatus).toBe('error')
    expect((await loadFlow(db, id))?.doc.nodes[0]?.data.config['template']).toBe('v1')
    // Space again: the next save writes the edit and clears the banner.
    full.mockRestore()
    await app.services.flows.flush()
    expect((await loadFlow(db, id))?.doc.nodes[0]?.data.config['template']).toBe('v2')
    expect(noticeStore.getState().banner).toBeNull()
    app.stop()
  })

  it('shows a blocked-storage banner when the database cannot open, and still opens a flow', async () => {
    const flows = createFlowStore()
    const blocked = Object.assign(new Error('blocked'), { name: 'BlockedError' })
    const app = createApp({ flows, openDb: () => Promise.reject(blocked) })
    await app.start()
    expect(noticeStore.getState().banner?.code).toBe('STORAGE_BLOCKED')
    expect(flows.getState().flowId).not.toBeNull()
    app.stop()
  })
})
