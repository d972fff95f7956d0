/**
 * Danger-zone operations. Each has a `describe…` that counts exactly what would go and what
 * stays (for the confirm dialog), and the operation itself returns the same description of what
 * it did. Each runs in one transaction: all or nothing.
 */
import type { WardflowDb } from './db.ts'
import { guard } from './errors.ts'
import { readStoredSecrets } from './keyLock.ts'
import { resetSettingsRows } from './repositories/settings.ts'
import { SETTINGS_ROW_ID } from './rows.ts'

export interface DangerCounts {
  flows: number
  runs: number
  exports: number
  caches: number
  /** Providers with a stored key (0 while locked: the count itself is encrypted). */
  keys: number
  /** Whether custom settings are stored (false means defaults are in use). */
  settings: boolean
  keysLocked: boolean
}

export interface DangerPlan {
  /** What the operation deletes, counted. */
  goes: Partial<DangerCounts>
  /** What stays untouched, counted. */
  stays: Partial<DangerCounts>
}

async function count(db: WardflowDb): Promise<DangerCounts> {
  const stored = await readStoredSecrets(db)
  return guard('counting stored data', async () => ({
    flows: await db.flows.count(),
    runs: await db.runs.count(),
    exports: await db.exports.count(),
    caches: await db.caches.count(),
    keys:
      stored.state === 'plain'
        ? stored.secrets.filter((s) => s.apiKey !== '' || s.headers.length > 0).length
        : 0,
    settings: (await db.settings.get(SETTINGS_ROW_ID)) !== undefined,
    keysLocked: stored.state === 'locked',
  }))
}

/** Clear cache: run history, settings exports and caches go; flows, settings and keys stay. */
export async function describeClearCache(db: WardflowDb): Promise<DangerPlan> {
  const c = await count(db)
  return {
    goes: { runs: c.runs, exports: c.exports, caches: c.caches },
    stays: { flows: c.flows, settings: c.settings, keys: c.keys, keysLocked: c.keysLocked },
  }
}

export async function clearCache(db: WardflowDb): Promise<DangerPlan> {
  const plan = await describeClearCache(db)
  await guard('clearing the cache', () =>
    db.transaction('rw', db.runs, db.exports, db.caches, async () => {
      await db.runs.clear()
      await db.exports.clear()
      await db.caches.clear()
    }),
  )
  return plan
}

/** Delete all flows: every flow and its run history go; settings, keys and exports stay. */
export async function describeDeleteAllFlows(db: WardflowDb): Promise<DangerPlan> {
  const c = await count(db)
  return {
    goes: { flows: c.flows, runs: c.runs },
    stays: {
      settings: c.settings,
      keys: c.keys,
      keysLocked: c.keysLocked,
      exports: c.exports,
      caches: c.caches,
    },
  }
}

export async function deleteAllFlows(db: WardflowDb): Promise<DangerPlan> {
  const plan = await describeDeleteAllFlows(db)
  await guard('deleting all flows', () =>
    db.transaction('rw', db.flows, db.runs, async () => {
      await db.runs.clear()
      await db.flows.clear()
    }),
  )
  return plan
}

/**
 * Reset settings: settings return to defaults and the keys (with their lock) are deleted, since
 * the providers they belong to are reset too. Flows, runs and exports stay.
 */
export async function describeResetSettings(db: WardflowDb): Promise<DangerPlan> {
  const c = await count(db)
  return {
    goes: { settings: c.settings, keys: c.keys, keysLocked: c.keysLocked },
    stays: { flows: c.flows, runs: c.runs, exports: c.exports, caches: c.caches },
  }
}

export async function resetSettings(db: WardflowDb): Promise<DangerPlan> {
  const plan = await describeResetSettings(db)
  await resetSettingsRows(db)
  return plan
}
