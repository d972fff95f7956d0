import { describe, expect, it, vi } from 'vitest'
import { FlowError } from '../../src/engine/index.ts'
import {
  duplicateFlow,
  listFlows,
  loadFlow,
  removeAllFlows,
  removeFlow,
  renameFlow,
  saveFlow,
  searchFlows,
} from '../../src/storage/repositories/flows.ts'
import { listRuns, saveRun } from '../../src/storage/repositories/runs.ts'
import { freshDb, quotaError, sampleFlow, sampleRun } from './support.ts'

describe('flow repository', () => {
  it('lists summaries newest first and loads exactly what was saved', async () => {
    const db = await freshDb()
    const older = sampleFlow('f_old', 'Older', '2026-01-01T00:00:00.000Z')
    const newer = sampleFlow('f_new', 'Newer', '2026-03-01T00:00:00.000Z')
    await saveFlow(db, older)
    await saveFlow(db, newer)
    expect(await listFlows(db)).toEqual([
      { id: 'f_new', name: 'Newer', updatedAt: '2026-03-01T00:00:00.000Z', nodeCount: 4 },
      { id: 'f_old', name: 'Older', updatedAt: '2026-01-01T00:00:00.000Z', nodeCount: 4 },
    ])
    const loaded = await loadFlow(db, 'f_old')
    expect(loaded?.doc).toEqual(older)
    expect(loaded?.notes).toEqual([])
    expect(loaded?.migrated).toEqual([])
    expect(await loadFlow(db, 'missing')).toBeUndefined()
  })

  it('keeps viewport, sizes and handles through save and load', async () => {
    const db = await freshDb()
    const doc = sampleFlow('f1')
    doc.viewport = { x: -120.5, y: 42, zoom: 1.75 }
    doc.nodes.push({
      id: 'note_1',
      type: 'note',
      position: { x: 5, y: 6 },
      data: { label: 'Note', config: { configVersion: 1, text: '# hi' } },
      size: { width: 300, height: 120 },
    })
    await saveFlow(db, doc)
    expect((await loadFlow(db, 'f1'))?.doc).toEqual(doc)
  })

  it('searches names case- and accent-insensitively', async () => {
    const db = await freshDb()
    await saveFlow(db, sampleFlow('a', 'Résumé writer'))
    await saveFlow(db, sampleFlow('b', 'Weather report'))
    await saveFlow(db, sampleFlow('c', '天气 助手'))
    expect((await searchFlows(db, 'RESUME')).map((f) => f.id)).toEqual(['a'])
    expect((await searchFlows(db, 'report')).map((f) => f.id)).toEqual(['b'])
    expect((await searchFlows(db, '天气')).map((f) => f.id)).toEqual(['c'])
    expect(await searchFlows(db, '  ')).toHaveLength(3)
  })

  it('renames and duplicates with the given time and a fresh id', async () => {
    const db = await freshDb()
    await saveFlow(db, sampleFlow('f1', 'First'))
    const renamed = await renameFlow(db, 'f1', 'Renamed', '2026-05-05T05:05:05.000Z')
    expect(renamed.metadata).toMatchObject({
      id: 'f1',
      name: 'Renamed',
      updatedAt: '2026-05-05T05:05:05.000Z',
    })
    const copy = await duplicateFlow(db, 'f1', 'f2', 'Renamed (copy)', '2026-06-06T00:00:00.000Z')
    expect(copy.metadata).toMatchObject({
      id: 'f2',
      name: 'Renamed (copy)',
      createdAt: '2026-06-06T00:00:00.000Z',
    })
    expect(copy.nodes).toEqual(renamed.nodes)
    expect((await listFlows(db)).map((f) => [f.id, f.name])).toEqual([
      ['f2', 'Renamed (copy)'],
      ['f1', 'Renamed'],
    ])
    await expect(renameFlow(db, 'nope', 'x', '2026-01-01T00:00:00.000Z')).rejects.toMatchObject({
      code: 'STORAGE_FAILED',
    })
  })

  it('removes one flow with its runs, or all flows', async () => {
    const db = await freshDb()
    await saveFlow(db, sampleFlow('f1'))
    await saveFlow(db, sampleFlow('f2'))
    await saveRun(db, sampleRun('f1', 1), { keep: 5 })
    await saveRun(db, sampleRun('f2', 2), { keep: 5 })
    await removeFlow(db, 'f1')
    expect((await listFlows(db)).map((f) => f.id)).toEqual(['f2'])
    expect(await listRuns(db, 'f1')).toEqual([])
    expect(await listRuns(db, 'f2')).toHaveLength(1)
    expect(await removeAllFlows(db)).toBe(1)
    expect(await listFlows(db)).toEqual([])
    expect(await db.runs.count()).toBe(0)
  })

  it('maps a full disk to STORAGE_QUOTA and keeps the version saved before', async () => {
    const db = await freshDb()
    const original = sampleFlow('f1', 'Original')
    await saveFlow(db, original)
    const spy = vi.spyOn(db.flows, 'put').mockRejectedValue(quotaError())
    const edited = { ...original, metadata: { ...original.metadata, name: 'Edited' } }
    const error = await saveFlow(db, edited).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FlowError)
    expect(error).toMatchObject({ code: 'STORAGE_QUOTA' })
    expect((error as FlowError).message).toMatch(/storage .* is full.*still there/i)
    spy.mockRestore()
    expect((await loadFlow(db, 'f1'))?.doc).toEqual(original)
  })

  it('leaves a damaged row as stored and says which flow could not be read', async () => {
    const db = await freshDb()
    await db.flows.put({
      id: 'bad',
      name: 'Broken one',
      updatedAt: '2026-01-01T00:00:00.000Z',
      schemaVersion: 3,
      doc: 'not a flow',
    })
    const error = await loadFlow(db, 'bad').catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'STORAGE_FAILED' })
    expect((error as Error).message).toContain('Broken one')
    expect((await db.flows.get('bad'))?.doc).toBe('not a flow')
  })

  it('keeps the row id as the flow id even if the stored document claims another', async () => {
    const db = await freshDb()
    await db.flows.put({
      id: 'real_id',
      name: 'X',
      updatedAt: '2026-01-01T00:00:00.000Z',
      schemaVersion: 3,
      doc: sampleFlow('other_id', 'X'),
    })
    const loaded = await loadFlow(db, 'real_id')
    expect(loaded?.doc.metadata.id).toBe('real_id')
    expect(loaded?.notes).toEqual([expect.stringMatching(/"other_id".*"real_id"/)])
  })

  it('refuses a row written by a newer Wardflow instead of guessing', async () => {
    const db = await freshDb()
    await db.flows.put({
      id: 'new',
      name: 'Future',
      updatedAt: '2026-01-01T00:00:00.000Z',
      schemaVersion: 99,
      doc: sampleFlow('new'),
    })
    await expect(loadFlow(db, 'new')).rejects.toThrow(/newer Wardflow/)
  })

  it('repairs in memory without dropping data: unknown types and broken nodes become placeholders', async () => {
    const db = await freshDb()
    const doc = sampleFlow('f1') as unknown as { nodes: unknown[] }
    doc.nodes.push({
      id: 'cond_1',
      type: 'teleport',
      position: { x: 1, y: 2 },
      data: { label: 'Cond', config: { cases: [] } },
    })
    doc.nodes.push({ id: 'broken', type: 'template' })
    await db.flows.put({
      id: 'f1',
      name: 'Sample flow',
      updatedAt: '2026-01-01T00:00:00.000Z',
      schemaVersion: 3,
      doc,
    })
    const loaded = await loadFlow(db, 'f1')
    const cond = loaded?.doc.nodes.find((n) => n.id === 'cond_1')
    expect(cond).toMatchObject({
      type: 'unsupported',
      position: { x: 1, y: 2 },
      data: { label: 'Cond', config: { originalType: 'teleport' } },
    })
    expect((cond?.data.config as { original: unknown }).original).toEqual(doc.nodes[4])
    const broken = loaded?.doc.nodes.find((n) => n.id === 'broken')
    expect(broken).toMatchObject({
      type: 'unsupported',
      data: { config: { originalType: 'template', original: { id: 'broken', type: 'template' } } },
    })
    expect(loaded?.notes.join('\n')).toMatch(/teleport.*placeholder/)
  })

  it('keeps a node whose settings are invalid (for preflight to report) rather than losing it', async () => {
    const db = await freshDb()
    const doc = sampleFlow('f1')
    const llm = doc.nodes.find((n) => n.type === 'llm')
    if (llm) llm.data.config.temperature = 9
    await saveFlow(db, doc)
    const loaded = await loadFlow(db, 'f1')
    expect(loaded?.doc.nodes.find((n) => n.type === 'llm')?.data.config.temperature).toBe(9)
    expect(loaded?.notes.join('\n')).toMatch(/llm_1.*temperature/)
  })
})
