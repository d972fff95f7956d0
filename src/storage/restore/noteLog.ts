/**
 * The notes of an import or a restore as they are written: each in English (the CLI prints
 * `texts`) and, beside it, the catalogue key and values the UI words it by (`keyed`, read by
 * ui/import/noteText.ts). Writing both in one call keeps a new note from being English-only.
 */
import type { KeyedNote } from './schema.ts'

export type NoteParams = Record<string, string | number>

export class NoteLog {
  readonly texts: string[] = []
  readonly keyed: KeyedNote[] = []

  /** Adds a note: its English `text`, and `key` (`issues:importNote.*`) with `params` for the UI. */
  add(text: string, key: string, params?: NoteParams): void {
    this.texts.push(text)
    this.keyed.push(params === undefined ? { text, key } : { text, key, params })
  }

  /** Adds a note before all others (a summary written once everything is counted). */
  addFirst(text: string, key: string, params?: NoteParams): void {
    this.texts.unshift(text)
    this.keyed.unshift(params === undefined ? { text, key } : { text, key, params })
  }
}
