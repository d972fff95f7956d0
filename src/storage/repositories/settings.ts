/**
 * Settings: one row ('app') without secrets, plus the keys in `secrets`. The settings objects
 * handed to the app carry apiKey (and secret header values) filled in while keys are unlocked.
 */
import { RUN_HISTORY_PER_FLOW, RUN_HISTORY_RANGE } from '../../defaults.ts'
import { FlowError } from '../../engine/index.ts'
import { movedProviders, type MovedProvider } from '../../settings/origin.ts'
import {
  appSettingsSchema,
  defaultSettings,
  withDemoProvider,
  type AppSettings,
} from '../../settings/schema.ts'
import type { WardflowDb } from '../db.ts'
import { guard } from '../errors.ts'
import {
  commitSecretsWrite,
  prepareSecretsWrite,
  readStoredSecrets,
  type UnlockedSecrets,
} from '../keyLock.ts'
import { SETTINGS_ROW_ID } from '../rows.ts'
import { isEmptySecrets, mcpSecretId, mergeSecrets, splitSecrets, type Secrets } from '../secrets.ts'
import { repairSettings } from '../settingsValidate.ts'

export interface LoadedSettings {
  /** Valid settings; keys filled in unless `locked` (then every apiKey is ''). */
  settings: AppSettings
  /** Keys are encrypted at rest and this load had no unlocked session. */
  locked: boolean
  /** Fields that were invalid and replaced by defaults. */
  notes: string[]
}

/** Loads settings (defaults for a fresh install), validated, with keys when available. */
export async function loadSettings(db: WardflowDb, session?: UnlockedSecrets): Promise<LoadedSettings> {
  const row = await guard('loading settings', () => db.settings.get(SETTINGS_ROW_ID))
  const repaired = repairSettings(row?.value)
  // Stores from before the demo provider could not be removed may lack it: put it back.
  const demo = withDemoProvider(repaired.settings)
  const settings = demo.settings
  const notes = demo.note === undefined ? repaired.notes : [...repaired.notes, demo.note]
  let stored: Awaited<ReturnType<typeof readStoredSecrets>>
  try {
    stored = await readStoredSecrets(db)
  } catch (error) {
    // Damaged locked keys must not stop the app from opening: they read as locked and unusable.
    if (error instanceof FlowError && error.details?.damaged === true) {
      return { settings, locked: true, notes: [...notes, `keys: ${error.message}`] }
    }
    throw error
  }
  if (stored.state === 'plain')
    return { settings: mergeSecrets(settings, stored.secrets), locked: false, notes }
  if (session !== undefined)
    return { settings: mergeSecrets(settings, session.secrets), locked: false, notes }
  return { settings, locked: true, notes }
}

export interface SaveSettingsOptions {
  /** Needed to change keys while they are locked. */
  session?: UnlockedSecrets
  /**
   * A provider whose apiKey is '' keeps the key (and secret header values) already stored, e.g.
   * after a sanitized import, but only while its base URL keeps the stored origin: a settings
   * file must never send a stored key to another host. While locked without a session, such a
   * move is KEY_LOCKED (the encrypted keys cannot be edited), so callers unlock first.
   */
  keepExistingWhenEmpty?: boolean
}

export interface SaveSettingsReport {
  /** Providers whose stored key or secret headers were dropped: they now send to another origin. */
  droppedKeys: MovedProvider[]
}

/** The settings row as stored (repaired like a load would), for comparing origins. */
async function storedRow(db: WardflowDb): Promise<AppSettings> {
  const row = await guard('loading settings', () => db.settings.get(SETTINGS_ROW_ID))
  return repairSettings(row?.value).settings
}

/**
 * Saves settings: the row without secrets, the keys into `secrets`. While locked and without a
 * session, keys cannot change: settings with only empty keys save and leave them alone, any
 * non-empty key is KEY_LOCKED. Either both rows are written or neither.
 */
export async function saveSettings(
  db: WardflowDb,
  settings: AppSettings,
  options: SaveSettingsOptions = {},
): Promise<SaveSettingsReport> {
  const parsed = appSettingsSchema.safeParse(settings)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new FlowError(
      'INVALID_CONFIG',
      `These settings are not valid (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}); nothing was saved.`,
    )
  }
  const { settings: row, secrets } = splitSecrets(parsed.data)
  const stored = await readStoredSecrets(db)
  const locked = stored.state === 'locked' && options.session === undefined
  let nextSecrets: Secrets | undefined = secrets
  let droppedKeys: MovedProvider[] = []
  if (options.keepExistingWhenEmpty === true) {
    const moved = movedProviders(await storedRow(db), parsed.data)
    if (locked && moved.length > 0) {
      const first = moved[0]
      throw new FlowError(
        'KEY_LOCKED',
        `The keys are locked, and this file points ${first?.label ?? ''} to ${first?.to || 'another address'} instead of ${first?.from || 'its stored address'}: unlock your keys so its stored key can be dropped; nothing was saved.`,
      )
    }
    if (!locked) {
      const existing = stored.state === 'plain' ? stored.secrets : (options.session?.secrets ?? [])
      const movedIds = new Set(moved.map((m) => m.providerId))
      const hadSecret = (id: string): boolean =>
        existing.some((s) => s.providerId === id && !isEmptySecrets([s]))
      droppedKeys = moved.filter((m) => hadSecret(m.providerId))
      const kept = existing.filter((s) => !movedIds.has(s.providerId))
      nextSecrets = splitSecrets(mergeSecrets(parsed.data, kept)).secrets
    }
  }
  if (locked) {
    if (!isEmptySecrets(secrets)) {
      throw new FlowError(
        'KEY_LOCKED',
        'The keys are locked. Unlock them with your passphrase to change a key; nothing was saved.',
      )
    }
    nextSecrets = undefined
  } else if (nextSecrets !== undefined) {
    const providerIds = new Set([
      ...row.providers.map((p) => p.id),
      ...row.mcpServers.map((m) => mcpSecretId(m.id)),
    ])
    nextSecrets = nextSecrets.filter((s) => providerIds.has(s.providerId))
  }
  const write =
    nextSecrets === undefined ? undefined : await prepareSecretsWrite(db, nextSecrets, options.session)
  await guard('saving settings', () =>
    db.transaction('rw', db.settings, db.secrets, async () => {
      if (write !== undefined) await commitSecretsWrite(db, write)
      await db.settings.put({ id: SETTINGS_ROW_ID, value: row })
    }),
  )
  if (options.session !== undefined && nextSecrets !== undefined) options.session.secrets = nextSecrets
  return { droppedKeys }
}

/** Replaces settings by defaults and deletes every key (and the lock). Flows and runs stay. */
export function resetSettingsRows(db: WardflowDb): Promise<void> {
  return guard('resetting settings', () =>
    db.transaction('rw', db.settings, db.secrets, async () => {
      await db.secrets.clear()
      await db.settings.put({ id: SETTINGS_ROW_ID, value: defaultSettings() })
    }),
  )
}

/** How many runs to keep per flow (settings.runHistoryPerFlow, else RUN_HISTORY_PER_FLOW). */
export async function readRunHistoryLimit(db: WardflowDb): Promise<number> {
  const row = await guard('loading settings', () => db.settings.get(SETTINGS_ROW_ID))
  const value = row?.value as { runHistoryPerFlow?: unknown } | undefined
  const limit = value?.runHistoryPerFlow
  return typeof limit === 'number' &&
    Number.isInteger(limit) &&
    limit >= RUN_HISTORY_RANGE.min &&
    limit <= RUN_HISTORY_RANGE.max
    ? limit
    : RUN_HISTORY_PER_FLOW
}
