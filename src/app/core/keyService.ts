/**
 * Provider keys at rest and in this session. Keys live in IndexedDB only (storage/secrets);
 * a person may lock them with a passphrase (storage/keyLock: PBKDF2 600 000 + AES-GCM). While
 * locked, unlocking decrypts them into memory for this session only: the session lives in this
 * closure and is never written anywhere. Storage comes through its chunk (loadStorage.ts):
 * this service is part of the app core, which the first paint loads.
 */
import type { StoreApi } from 'zustand'
import type { UnlockedSecrets } from '../../storage/index.ts'
import { settingsUiStore, type PassphrasePurpose, type SettingsUiState } from '../../store/settingsUiStore.ts'
import { dbGetter, type DbSource } from './databaseService.ts'
import { loadStorage } from './loadStorage.ts'

/** Access to provider keys that are stored locked (encrypted with a passphrase); runs use it. */
export interface KeyAccess {
  /** True while keys are encrypted at rest and not unlocked in this session. */
  isLocked(): boolean
  /**
   * Asks the person for the passphrase. Resolves true once unlocked (the settings store then
   * holds the keys), false when they cancel or the passphrase is wrong.
   */
  requestUnlock?(): Promise<boolean>
}

export interface KeyServiceDeps {
  db: DbSource
  ui?: StoreApi<SettingsUiState>
  /** Called after the keys became readable or unreadable, to reload settings with or without them. */
  onKeysChanged(): Promise<void>
}

export interface KeyService extends KeyAccess {
  /** Reads whether keys are locked at rest. */
  refresh(): Promise<void>
  /** The unlocked keys of this session, if any. */
  session(): UnlockedSecrets | undefined
  lock(passphrase: string): Promise<void>
  /** Throws WRONG_PASSPHRASE (nothing changes) when the passphrase is wrong. */
  unlock(passphrase: string): Promise<void>
  removeLock(passphrase: string): Promise<void>
  /** Forgets the session (after a settings reset deleted the keys). */
  forget(): Promise<void>
  /** Asks for the passphrase until it unlocks or the person cancels; true when unlocked. */
  requestUnlock(purpose?: PassphrasePurpose): Promise<boolean>
}

export function createKeyService(deps: KeyServiceDeps): KeyService {
  const ui = deps.ui ?? settingsUiStore
  const db = dbGetter(deps.db)
  let session: UnlockedSecrets | undefined
  let lockedAtRest = false

  const publish = (): void => {
    ui.getState().setKeyState(!lockedAtRest ? 'plain' : session === undefined ? 'locked' : 'unlocked')
  }

  const unlock = async (passphrase: string): Promise<void> => {
    session = await (await loadStorage()).unlockSecrets(await db(), passphrase)
    lockedAtRest = true
    publish()
    await deps.onKeysChanged()
  }

  return {
    async refresh() {
      lockedAtRest = await (await loadStorage()).isLocked(await db())
      if (!lockedAtRest) session = undefined
      publish()
    },
    session: () => session,
    isLocked: () => lockedAtRest && session === undefined,
    async lock(passphrase) {
      session = await (await loadStorage()).lockSecrets(await db(), passphrase)
      lockedAtRest = true
      publish()
      await deps.onKeysChanged()
    },
    unlock,
    async removeLock(passphrase) {
      await (await loadStorage()).removeSecretsLock(await db(), passphrase)
      session = undefined
      lockedAtRest = false
      publish()
      await deps.onKeysChanged()
    },
    async forget() {
      session = undefined
      lockedAtRest = await (await loadStorage()).isLocked(await db())
      publish()
    },
    async requestUnlock(purpose = 'unlockForRun') {
      if (!(lockedAtRest && session === undefined)) return true
      const answer = await ui.getState().askPassphrase({ purpose, confirm: false, verify: unlock })
      return answer !== null
    },
  }
}

/**
 * Opens the passphrase dialog and resolves with what the person typed, or null when they
 * cancel. Nothing is checked: use KeyService.requestUnlock to unlock keys.
 */
export function requestPassphrase(purpose: PassphrasePurpose = 'unlockForRun'): Promise<string | null> {
  return settingsUiStore.getState().askPassphrase({ purpose, confirm: false })
}
