/**
 * State of the settings screen and of the dialogs app/ opens on its behalf (the passphrase
 * prompt). Not part of any flow or of the settings themselves; nothing here is persisted.
 */
import { createStore, useStore } from 'zustand'

/** One recorded settings export, as the list shows it. */
export interface ExportEntry {
  id: string
  kind: 'sanitized' | 'full'
  /** ms since epoch */
  createdAt: number
  size: number
  fileName: string
}

/** plain: keys stored readable; locked: encrypted and not unlocked; unlocked: encrypted, open for this session. */
export type KeyState = 'plain' | 'locked' | 'unlocked'

export const SETTINGS_TABS = [
  'providers',
  'mcp',
  'keys',
  'protection',
  'budget',
  'general',
  'backup',
  'danger',
] as const
export type SettingsTab = (typeof SETTINGS_TABS)[number]

/** Why a passphrase is asked for; picks the dialog's title and text. */
export type PassphrasePurpose =
  'unlockForRun' | 'unlockKeys' | 'lockKeys' | 'removeLock' | 'exportFull' | 'importFull'

export interface PassphraseRequest {
  id: number
  purpose: PassphrasePurpose
  /** Ask twice: the person is choosing a new passphrase. */
  confirm: boolean
  /** e.g. the name of the file being imported. */
  subject?: string
  /**
   * Checks the passphrase before the dialog closes (e.g. tries to decrypt). Throws to keep the
   * dialog open with the reason shown; resolves when accepted.
   */
  verify?: (passphrase: string) => Promise<void>
  resolve(passphrase: string | null): void
}

export interface SettingsUiState {
  open: boolean
  tab: SettingsTab
  keyState: KeyState
  exports: readonly ExportEntry[]
  passphrase: PassphraseRequest | null
  openSettings(tab?: SettingsTab): void
  closeSettings(): void
  setTab(tab: SettingsTab): void
  setKeyState(state: KeyState): void
  setExports(exports: readonly ExportEntry[]): void
  /** Shows the passphrase dialog; resolves with the accepted passphrase, or null when cancelled. */
  askPassphrase(request: Omit<PassphraseRequest, 'id' | 'resolve'>): Promise<string | null>
  /** Closes the passphrase dialog with an answer (the dialog calls this). */
  answerPassphrase(id: number, passphrase: string | null): void
}

let requestSeq = 0

export function createSettingsUiStore() {
  return createStore<SettingsUiState>()((set, get) => ({
    open: false,
    tab: 'providers',
    keyState: 'plain',
    exports: [],
    passphrase: null,
    openSettings: (tab) => set({ open: true, ...(tab === undefined ? {} : { tab }) }),
    closeSettings: () => set({ open: false }),
    setTab: (tab) => set({ tab }),
    setKeyState: (keyState) => set({ keyState }),
    setExports: (exports) => set({ exports }),
    askPassphrase: (request) =>
      new Promise<string | null>((resolve) => {
        // One prompt at a time: an older one still open is answered "cancelled".
        get().passphrase?.resolve(null)
        requestSeq += 1
        set({ passphrase: { ...request, id: requestSeq, resolve } })
      }),
    answerPassphrase: (id, passphrase) => {
      const current = get().passphrase
      if (current === null || current.id !== id) return
      set({ passphrase: null })
      current.resolve(passphrase)
    },
  }))
}

export const settingsUiStore = createSettingsUiStore()

export function useSettingsUi<T>(selector: (state: SettingsUiState) => T): T {
  return useStore(settingsUiStore, selector)
}
