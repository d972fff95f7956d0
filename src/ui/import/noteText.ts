/**
 * One note of an import in the UI's language. Notes are English (the CLI prints them); those
 * with a catalogue key (`issues:importNote.*`) are worded through it, the rest stay as written.
 */
import type { ImportReport } from '../../store/importUiStore.ts'
import type { Translate } from '../kit/issueText.ts'

export function noteText(report: Pick<ImportReport, 'keyedNotes'>, note: string, t: Translate): string {
  const keyed = report.keyedNotes?.find((k) => k.text === note)
  return keyed === undefined ? note : t(keyed.key, { ...keyed.params, defaultValue: note })
}
