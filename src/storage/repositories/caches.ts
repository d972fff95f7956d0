/** Disposable cached data (e.g. a provider's fetched model list). Clearing it loses nothing a person made. */
import type { WardflowDb } from '../db.ts'
import { guard } from '../errors.ts'
import type { CacheRow } from '../rows.ts'

export function putCache(
  db: WardflowDb,
  id: string,
  kind: string,
  value: unknown,
  createdAt: number,
): Promise<void> {
  return guard('caching data', async () => {
    await db.caches.put({ id, kind, createdAt, value })
  })
}

/** The cached row, or undefined when missing or older than `maxAgeMs` at time `now`. */
export async function getCache(
  db: WardflowDb,
  id: string,
  now?: number,
  maxAgeMs?: number,
): Promise<CacheRow | undefined> {
  const row = await guard('reading the cache', () => db.caches.get(id))
  if (row === undefined) return undefined
  if (now !== undefined && maxAgeMs !== undefined && now - row.createdAt > maxAgeMs) return undefined
  return row
}

/** Deletes every cached row; returns how many. */
export function clearCaches(db: WardflowDb): Promise<number> {
  return guard('clearing caches', async () => {
    const count = await db.caches.count()
    await db.caches.clear()
    return count
  })
}
