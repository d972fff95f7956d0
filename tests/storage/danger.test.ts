import { describe, expect, it } from 'vitest'
import { defaultSettings } from '../../src/settings/schema.ts'
import {
  clearCache,
  deleteAllFlows,
  describeClearCache,
  describeDeleteAllFlows,
  describeResetSettings,
  resetSettings,
} from '../../src/storage/danger.ts'
import type { WardflowDb } from '../../src/storage/db.ts'
import { lockSecrets } from '../../src/storage/keyLock.ts'
import { clearCaches, getCache, putCache } from '../../src/storage/repositories/caches.ts'
import {
  clearExports,
  getExport,
  listExports,
  recordExport,
  removeExport,
} from '../../src/storage/repositories/exports.ts'
import { listFlows, saveFlow } from '../../src/storage/repositories/flows.ts'
import { listRuns, saveRun } from '../../src/storage/repositories/runs.ts'
import { loadSettings, saveSettings } from '../../src/storage/repositories/settings.ts'
import { freshDb, sampleFlow, sampleRun } from './support.ts'

async function populated(): Promise<WardflowDb> {
  const db = await freshDb()
  await saveFlow(db, sampleFlow('f1'))
  await saveFlow(db, sampleFlow('f2'))
  await saveRun(db, sampleRun('f1', 1), { keep: 9 })
  await saveRun(db, sampleRun('f1', 2), { keep: 9 })
  await saveRun(db, sampleRun('f2', 3), { keep: 9 })
  await recordExport(db, { kind: 'sanitized', fileName: 'a.json', text: '{"a":1}', createdAt: 10 })
  await putCache(db, 'models:openai', 'models', ['gpt-4o'], 5)
  const settings = defaultSettings()
  settings.theme = 'dark'
  settings.providers.push({
    id: 'openai',
    label: 'OpenAI',
    kind: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o',
    models: [],
    apiKey: 'sk-danger-zone-key-1',
    stream: true,
    headers: [],
  })
  await saveSettings(db, settings)
  return db
}

describe('exports table', () => {
  it('records exports with their size and lists them newest first without the text', async () => {
    const db = await freshDb()
    const first = await recordExport(db, {
      kind: 'sanitized',
      fileName: 's.json',
      text: '{"ü":1}',
      createdAt: 100,
    })
    const second = await recordExport(db, {
      kind: 'full',
      fileName: 'f.json',
      text: '{}',
      createdAt: 200,
      id: 'fixed',
    })
    expect(first.size).toBe(8) // 7 characters, "ü" is two UTF-8 bytes
    expect(await listExports(db)).toEqual([
      { id: 'fixed', kind: 'full', createdAt: 200, size: 2, fileName: 'f.json' },
      { id: first.id, kind: 'sanitized', createdAt: 100, size: 8, fileName: 's.json' },
    ])
    expect(await getExport(db, 'fixed')).toEqual(second)
    await removeExport(db, 'fixed')
    expect(await getExport(db, 'fixed')).toBeUndefined()
    expect(await clearExports(db)).toBe(1)
  })

  it('caches expire by age and clear', async () => {
    const db = await freshDb()
    await putCache(db, 'k', 'models', [1], 1000)
    expect((await getCache(db, 'k'))?.value).toEqual([1])
    expect(await getCache(db, 'k', 1500, 1000)).toBeDefined()
    expect(await getCache(db, 'k', 2500, 1000)).toBeUndefined()
    expect(await clearCaches(db)).toBe(1)
  })
})

describe('danger zone', () => {
  it('clear cache: says exactly what goes and stays, then removes runs, exports and caches only', async () => {
    const db = await populated()
    const plan = await describeClearCache(db)
    expect(plan).toEqual({
      goes: { runs: 3, exports: 1, caches: 1 },
      stays: { flows: 2, settings: true, keys: 1, keysLocked: false },
    })
    expect(await clearCache(db)).toEqual(plan)
    expect(await db.runs.count()).toBe(0)
    expect(await db.exports.count()).toBe(0)
    expect(await db.caches.count()).toBe(0)
    expect(await listFlows(db)).toHaveLength(2)
    const { settings } = await loadSettings(db)
    expect(settings.theme).toBe('dark')
    expect(settings.providers[1]?.apiKey).toBe('sk-danger-zone-key-1')
  })

  it('delete all flows: flows and their runs go; settings, keys and exports stay', async () => {
    const db = await populated()
    const plan = await describeDeleteAllFlows(db)
    expect(plan).toEqual({
      goes: { flows: 2, runs: 3 },
      stays: { settings: true, keys: 1, keysLocked: false, exports: 1, caches: 1 },
    })
    expect(await deleteAllFlows(db)).toEqual(plan)
    expect(await listFlows(db)).toEqual([])
    expect(await listRuns(db, 'f1')).toEqual([])
    expect(await db.exports.count()).toBe(1)
    expect((await loadSettings(db)).settings.providers[1]?.apiKey).toBe('sk-danger-zone-key-1')
  })

  it('reset settings: defaults back, keys and lock gone; flows, runs and exports stay', async () => {
    const db = await populated()
    await lockSecrets(db, 'a long passphrase')
    const plan = await describeResetSettings(db)
    expect(plan).toEqual({
      goes: { settings: true, keys: 0, keysLocked: true },
      stays: { flows: 2, runs: 3, exports: 1, caches: 1 },
    })
    expect(await resetSettings(db)).toEqual(plan)
    expect(await loadSettings(db)).toEqual({ settings: defaultSettings(), locked: false, notes: [] })
    expect(await db.secrets.count()).toBe(0)
    expect(await listFlows(db)).toHaveLength(2)
    expect(await db.runs.count()).toBe(3)
  })
})
