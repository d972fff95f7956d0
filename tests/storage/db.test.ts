import { describe, expect, it } from 'vitest'
import { DB_VERSION, openWardflowDb, WardflowDb } from '../../src/storage/db.ts'
import { listRuns } from '../../src/storage/repositories/runs.ts'
import { loadSettings } from '../../src/storage/repositories/settings.ts'
import { listFlows, loadFlow } from '../../src/storage/repositories/flows.ts'
import { defaultSettings } from '../../src/settings/schema.ts'
import { freshDb, sampleFlow, sampleRun, track } from './support.ts'

describe('WardflowDb', () => {
  it('creates every table at the newest version', async () => {
    const db = await freshDb()
    expect(db.verno).toBe(DB_VERSION)
    expect(db.tables.map((t) => t.name).sort()).toEqual([
      'approvals',
      'batchRuns',
      'caches',
      'exports',
      'flows',
      'knowledgeBases',
      'knowledgeChunks',
      'knowledgeDocuments',
      'runs',
      'secrets',
      'settings',
    ])
  })

  it('upgrades a v1 database: keys move out of settings into secrets, nothing else is lost', async () => {
    const name = `t-${crypto.randomUUID()}`
    const v1 = new WardflowDb(name, { upToVersion: 1 })
    await v1.open()
    expect(v1.verno).toBe(1)
    const settings = defaultSettings()
    settings.providers.push({
      id: 'openai',
      label: 'OpenAI',
      kind: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      models: [],
      apiKey: 'sk-old-v1-key-123456',
      stream: true,
      headers: [
        { key: 'Authorization', value: 'Bearer abc.def' },
        { key: 'X-Team', value: 'blue' },
      ],
    })
    await v1.table('settings').put({ id: 'app', value: settings })
    const doc = sampleFlow('f1', 'Before upgrade')
    await v1.table('flows').put({ id: 'f1', name: 'Before upgrade', updatedAt: doc.metadata.updatedAt, doc })
    await v1.table('runs').bulkPut([sampleRun('f1', 1000), sampleRun('f1', 2000)])
    v1.close()

    const db = track(await openWardflowDb(name))
    expect(db.verno).toBe(DB_VERSION)
    const row = (await db.settings.get('app'))?.value as typeof settings
    expect(JSON.stringify(row)).not.toContain('sk-old-v1-key-123456')
    expect(JSON.stringify(row)).not.toContain('Bearer abc.def')
    expect(row.providers[1]?.headers).toEqual([
      { key: 'Authorization', value: '' },
      { key: 'X-Team', value: 'blue' },
    ])
    expect(await db.secrets.get('keys')).toEqual({
      id: 'keys',
      state: 'plain',
      providers: [
        {
          providerId: 'openai',
          apiKey: 'sk-old-v1-key-123456',
          headers: [{ key: 'Authorization', value: 'Bearer abc.def' }],
        },
      ],
    })
    // The app still sees the keys, filled back in from secrets.
    const loaded = await loadSettings(db)
    expect(loaded.settings.providers[1]?.apiKey).toBe('sk-old-v1-key-123456')
    expect(loaded.settings.providers[1]?.headers[0]?.value).toBe('Bearer abc.def')
    // v3 added nodeCount to flow rows; the document itself is untouched and loads.
    expect((await db.flows.get('f1'))?.nodeCount).toBe(4)
    expect(await listFlows(db)).toEqual([
      { id: 'f1', name: 'Before upgrade', updatedAt: doc.metadata.updatedAt, nodeCount: 4 },
    ])
    expect((await loadFlow(db, 'f1'))?.doc).toEqual(doc)
    // v2's [flowId+startedAt] index serves the run list, newest first.
    expect((await listRuns(db, 'f1')).map((r) => r.startedAt)).toEqual([2000, 1000])
  })

  it('upgrades an empty v1 database to an empty key store', async () => {
    const name = `t-${crypto.randomUUID()}`
    const v1 = new WardflowDb(name, { upToVersion: 1 })
    await v1.open()
    v1.close()
    const db = track(await openWardflowDb(name))
    expect(await db.secrets.get('keys')).toEqual({ id: 'keys', state: 'plain', providers: [] })
    expect((await loadSettings(db)).settings).toEqual(defaultSettings())
  })
})
