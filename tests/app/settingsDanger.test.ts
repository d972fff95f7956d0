import { beforeEach, describe, expect, it } from 'vitest'
import { listExports, listFlows, loadSettings, saveFlow, saveRun, isLocked } from '../../src/storage/index.ts'
import { defaultSettings } from '../../src/settings/schema.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { libraryStore } from '../../src/store/libraryStore.ts'
import { settingsStore } from '../../src/store/settingsStore.ts'
import { freshDb, sampleFlow, sampleRun } from '../storage/support.ts'
import { fakeFlows, resetStores, settingsServiceFor } from './settingsSupport.ts'

beforeEach(resetStores)

async function seeded() {
  const db = await freshDb()
  await saveFlow(db, sampleFlow('flow_a', 'A'))
  await saveFlow(db, sampleFlow('flow_b', 'B'))
  await saveRun(db, sampleRun('flow_a', 1))
  await saveRun(db, sampleRun('flow_a', 2))
  await saveRun(db, sampleRun('flow_b', 3))
  await db.caches.put({ id: 'models:x', kind: 'models', createdAt: 1, value: ['m'] })
  return db
}

describe('danger zone service', () => {
  it('counts what each action would delete and keep', async () => {
    const db = await seeded()
    const service = settingsServiceFor(db)
    await service.load()
    await service.panel.exportSanitized()
    expect(await service.panel.dangerCounts()).toEqual({
      flows: 2,
      runs: 3,
      exports: 1,
      caches: 1,
      keys: 0,
      keysLocked: false,
      providers: 1,
    })
  })

  it('clear cache deletes run history, exports and caches, and keeps flows and settings', async () => {
    const db = await seeded()
    const service = settingsServiceFor(db)
    await service.load()
    await service.save({ ...settingsStore.getState().settings, theme: 'dark' })
    await service.panel.exportSanitized()
    await service.panel.clearCache()
    expect(await db.runs.count()).toBe(0)
    expect(await db.caches.count()).toBe(0)
    expect(await listExports(db)).toEqual([])
    expect((await listFlows(db)).map((f) => f.id).sort()).toEqual(['flow_a', 'flow_b'])
    expect((await loadSettings(db)).settings.theme).toBe('dark')
  })

  it('delete all flows removes every flow and run, then opens a fresh empty flow', async () => {
    const db = await seeded()
    const flows = fakeFlows()
    flowStore.getState().actions.load(sampleFlow('flow_a', 'A'))
    libraryStore.getState().setFlows([{ id: 'flow_a', name: 'A', updatedAt: '', nodeCount: 4 }])
    const service = settingsServiceFor(db, { flows })
    await service.load()
    await service.panel.deleteAllFlows()
    expect(await listFlows(db)).toEqual([])
    expect(await db.runs.count()).toBe(0)
    expect(flows.flushed).toBe(1)
    expect(flows.created).toBe(1)
    expect(flowStore.getState().flowId).toBe('new_1')
    expect(flowStore.getState().nodes).toEqual([])
    expect(libraryStore.getState().flows).toEqual([])
  })

  it('reset settings restores defaults, deletes keys and the lock, and keeps flows', async () => {
    const db = await seeded()
    const service = settingsServiceFor(db)
    await service.load()
    await service.save({
      ...settingsStore.getState().settings,
      theme: 'dark',
      providers: [
        ...settingsStore.getState().settings.providers,
        {
          id: 'p',
          label: 'P',
          kind: 'openai',
          baseUrl: 'http://x/v1',
          model: '',
          models: [],
          apiKey: 'sk-reset-me-123456',
          stream: true,
          headers: [],
        },
      ],
    })
    await service.panel.lockKeys('a long passphrase')
    await service.panel.resetSettings()
    expect(settingsStore.getState().settings).toEqual(defaultSettings())
    expect(await isLocked(db)).toBe(false)
    expect(await db.secrets.count()).toBe(0)
    expect(service.keys.isLocked()).toBe(false)
    expect((await listFlows(db)).length).toBe(2)
  }, 30_000)
})
