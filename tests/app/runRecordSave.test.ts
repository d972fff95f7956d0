/**
 * Issue 23, item 6: a run record that could not be saved is reported as such (it was silently
 * missing from History), and a field over the size cap fails its node with a message naming it.
 */
import { describe, expect, it } from 'vitest'
import { dexieRunsRepository } from '../../src/app/runs/runHistory.ts'
import { i18next } from '../../src/i18n/index.ts'
import { defaultSettings } from '../../src/settings/schema.ts'
import { toStorageError } from '../../src/storage/errors.ts'
import { listRuns } from '../../src/storage/repositories/runs.ts'
import { flow } from '../support/flowBuilders.ts'
import { config } from '../storage/support.ts'
import { harness } from './runHarness.ts'

describe('a run whose record cannot be saved', () => {
  it('says in the banner that the run will not be in History, and why', async () => {
    const h = await harness({
      repository: (db) => ({
        ...dexieRunsRepository(db),
        save: async () => {
          throw toStorageError(new DOMException('The value is too large', 'DataError'), 'saving the run')
        },
      }),
    })
    h.open(
      flow()
        .meta('flow_rec')
        .node('t', 'template', config('template', { template: 'hi' }))
        .build(),
    )
    await h.runToEnd()
    const banner = h.notices.getState().banner
    expect(banner?.messageKey).toBe('run:history.notSaved')
    expect(banner?.message).toContain('will not be in Run history')
    const shown = i18next.t(banner?.messageKey ?? '', { ...banner?.details })
    expect(shown).toContain('will not be in Run history')
    expect(shown).toContain('The value is too large')
    // The run itself ran and stays on screen.
    expect(h.runs.getState().run?.status).toBe('success')
    expect(await listRuns(h.db, 'flow_rec')).toEqual([])
  })
})

describe('a field over the size cap in a browser run', () => {
  it('fails the node naming the node and the field; the record is saved', async () => {
    const h = await harness({
      settings: { runtimeProtection: { ...defaultSettings().runtimeProtection, templateMaxChars: 10_000 } },
    })
    const doc = flow()
      .meta('flow_big')
      .node('in', 'input', config('input', { values: { text: 'z'.repeat(1_000) } }))
      .node('t', 'template', config('template', { template: '{{in.text}}'.repeat(100) }))
      .edge('in', 't')
      .build()
    h.open(doc)
    await h.runToEnd()
    const node = h.runs.getState().nodes['t']
    expect(node?.status).toBe('error')
    expect(node?.error?.code).toBe('TEMPLATE_TOO_LARGE')
    expect(node?.error?.message).toContain('"template" of "t"')
    expect(await listRuns(h.db, 'flow_big')).toHaveLength(1)
  })
})
