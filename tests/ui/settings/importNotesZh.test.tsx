// @vitest-environment jsdom
/**
 * A zh-CN reader importing a PatchCat file reads the import report's notes in Chinese: the
 * converter's notes arrive through the real import service and are worded by the catalogue.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createWorkflowIoService } from '../../../src/app/files/importExportService.ts'
import { ImportHost } from '../../../src/ui/import/ImportHost.tsx'
import { fakeFlows, resetStores } from '../../app/settingsSupport.ts'
import { freshDb } from '../../storage/support.ts'
import { EVERY_NOTE_FILE } from '../../support/patchcatNoteFiles.ts'
import { Providers, useLanguage } from './support.tsx'

const HAN = /\p{Script=Han}/u

async function importEveryNote(): Promise<string[]> {
  const db = await freshDb()
  const flows = fakeFlows()
  const io = createWorkflowIoService({ db, flows, download: () => {} })
  render(
    <Providers services={{ flows, import: io, export: io }}>
      <ImportHost />
    </Providers>,
  )
  await act(() => io.importFile(new File([JSON.stringify(EVERY_NOTE_FILE)], 'every-note.json')))
  const report = await screen.findByTestId('import-report')
  const summary = within(report).getByText(/What was converted|转换说明/)
  fireEvent.click(summary)
  const list = summary.closest('details')
  if (list === null) throw new Error('the notes are not in a disclosure')
  return within(list)
    .getAllByRole('listitem')
    .map((li) => li.textContent ?? '')
}

beforeEach(() => {
  resetStores()
})
afterEach(async () => {
  await useLanguage('en')
})

describe('a PatchCat import’s notes in the report', () => {
  it('are Chinese for a zh-CN reader', async () => {
    await useLanguage('zh-CN')
    const notes = await importEveryNote()
    expect(notes.length).toBeGreaterThan(25)
    for (const note of notes) {
      expect(note).toMatch(HAN)
      expect(note).not.toMatch(/not carried over|was left out|renamed to|is not a|could not be|became/)
    }
    expect(notes).toContain('writer：PatchCat 提供商 "openai" 不是 Wardflow 的提供商；将使用默认提供商。')
  })

  it('keep the CLI’s exact English for an English reader', async () => {
    await useLanguage('en')
    const notes = await importEveryNote()
    expect(notes).toContain(
      'writer: PatchCat provider "openai" is not a Wardflow provider; the default provider is used.',
    )
  })
})
