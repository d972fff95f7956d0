/** The exports table: every settings export as downloaded, to download or restore again. */
import type { WardflowDb } from '../db.ts'
import { guard } from '../errors.ts'
import type { ExportKind, ExportRecord } from '../rows.ts'

export type ExportSummary = Omit<ExportRecord, 'text'>

export interface NewExport {
  kind: ExportKind
  fileName: string
  text: string
  /** ms since epoch */
  createdAt: number
  /** Defaults to a random UUID. */
  id?: string
}

/** UTF-8 size of a text. */
export function byteSize(text: string): number {
  return new TextEncoder().encode(text).length
}

/** Records an export; returns the stored record. */
export function recordExport(db: WardflowDb, entry: NewExport): Promise<ExportRecord> {
  const record: ExportRecord = {
    id: entry.id ?? globalThis.crypto.randomUUID(),
    kind: entry.kind,
    createdAt: entry.createdAt,
    size: byteSize(entry.text),
    fileName: entry.fileName,
    text: entry.text,
  }
  return guard('recording the export', async () => {
    await db.exports.put(record)
    return record
  })
}

/** Every export, newest first, without the file text. */
export function listExports(db: WardflowDb): Promise<ExportSummary[]> {
  return guard('listing exports', async () => {
    const rows = await db.exports.orderBy('createdAt').reverse().toArray()
    return rows.map(({ text: _text, ...summary }) => summary)
  })
}

export function getExport(db: WardflowDb, id: string): Promise<ExportRecord | undefined> {
  return guard('loading an export', () => db.exports.get(id))
}

export function removeExport(db: WardflowDb, id: string): Promise<void> {
  return guard('deleting an export', () => db.exports.delete(id))
}

/** Deletes every recorded export; returns how many. */
export function clearExports(db: WardflowDb): Promise<number> {
  return guard('clearing exports', async () => {
    const count = await db.exports.count()
    await db.exports.clear()
    return count
  })
}
