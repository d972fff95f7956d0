/**
 * How the settings and import/export services reach the database: an open one (tests), or the
 * app's lazy opener (the composition root opens storage in the background while the shell paints).
 */
import type { WardflowDb } from '../../storage/index.ts'

export type DbSource = WardflowDb | (() => Promise<WardflowDb>)

/** A getter for `source`; a failing opener rejects every call (its error says why). */
export function dbGetter(source: DbSource): () => Promise<WardflowDb> {
  return typeof source === 'function' ? source : async () => source
}
