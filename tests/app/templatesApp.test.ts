// @vitest-environment jsdom
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src/app/core/createApp.ts'
import { templatesInstaller } from '../../src/app/templates/install.ts'
import { changeLanguage, initI18n } from '../../src/i18n/index.ts'
import { listFlows, loadFlow, type WardflowDb } from '../../src/storage/index.ts'
import { createFlowStore, type FlowStore } from '../../src/store/flowStore.ts'
import { libraryStore } from '../../src/store/libraryStore.ts'
import { noticeStore } from '../../src/store/noticeStore.ts'
import { galleryStore } from '../../src/store/galleryStore.ts'
import { freshDb } from '../storage/support.ts'
import { loadTemplate, SITE_BASE, siteFetch } from '../templates/harness.ts'

beforeAll(async () => {
  await initI18n('en')
})

beforeEach(() => {
  localStorage.clear()
  noticeStore.getState().dismissError()
  libraryStore.setState({ flows: [], ready: false, saveStatus: 'idle' })
  galleryStore.setState({ open: false, status: 'idle', templates: [], error: null, opening: null })
})

/** A page load of the app with the templates installed, over `db`. */
async function boot(db: WardflowDb): Promise<{ app: App; flows: FlowStore }> {
  const flows = createFlowStore()
  const app = createApp({
    flows,
    openDb: async () => db,
    installers: [templatesInstaller({ siteUrl: SITE_BASE, fetch: siteFetch([]) })],
  })
  await app.start()
  return { app, flows }
}

async function openTemplate(app: App, id: string): Promise<void> {
  const opened = await app.services.templates?.openTemplate?.(id)
  expect(opened).toBe(true)
}

const names = () => libraryStore.getState().flows.map((f) => f.name)

describe('templates in the app', () => {
  it('first visit: "See the loop breaker" replaces the blank Untitled flow with the stuck agent', async () => {
    const db = await freshDb()
    const { app, flows } = await boot(db)
    expect(names()).toEqual(['Untitled flow'])
    await openTemplate(app, 'stuck-agent')
    const state = flows.getState()
    expect(state.metadata?.name).toBe('See the loop breaker')
    expect(state.nodes.map((n) => n.id)).toEqual(
      loadTemplate('stuck-agent.wardflow.json').nodes.map((n) => n.id),
    )
    expect(names()).toEqual(['See the loop breaker'])
    expect((await listFlows(db)).map((f) => f.name)).toEqual(['See the loop breaker'])
    app.stop()
  })

  it('replaces a blank flow created in English after the person switched to Chinese', async () => {
    const db = await freshDb()
    const { app, flows } = await boot(db)
    expect(names()).toEqual(['Untitled flow'])
    await changeLanguage('zh-CN')
    try {
      await openTemplate(app, 'stuck-agent')
      expect(names()).toEqual([flows.getState().metadata?.name])
      expect(await listFlows(db)).toHaveLength(1)
    } finally {
      await changeLanguage('en')
      app.stop()
    }
  })

  it('keeps the current flow when it has nodes or a name the person chose', async () => {
    const db = await freshDb()
    const { app, flows } = await boot(db)
    await app.services.flows.rename(flows.getState().flowId ?? '', 'My idea')
    await openTemplate(app, 'js-transform')
    await openTemplate(app, 'llm-chain')
    expect(names().sort()).toEqual([
      'JavaScript data transform',
      'LLM chain: draft, critique, polish',
      'My idea',
    ])
    expect(flows.getState().metadata?.name).toBe('LLM chain: draft, critique, polish')
    app.stop()
  })

  it('reopens the template flow after a reload, exactly as saved', async () => {
    const db = await freshDb()
    const first = await boot(db)
    await openTemplate(first.app, 'research-agent')
    const id = first.flows.getState().flowId ?? ''
    await first.app.services.flows.flush()
    first.app.stop()
    const second = await boot(db)
    expect(second.flows.getState().flowId).toBe(id)
    expect((await loadFlow(db, id))?.doc.nodes).toEqual(second.flows.getState().nodes)
    second.app.stop()
  })
})
