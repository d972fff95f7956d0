/**
 * The settings the running app uses (language, theme, autosave delay, providers...). app/
 * loads and saves them through storage; ui/ reads them here.
 */
import { createStore, useStore } from 'zustand'
import { defaultSettings, type AppSettings } from '../settings/schema.ts'

export interface SettingsState {
  settings: AppSettings
  /** True once the stored settings were loaded (before that, defaults and first-paint hints). */
  loaded: boolean
  setSettings(settings: AppSettings): void
  /** Changes some settings; app/ persists every change. */
  update(patch: Partial<AppSettings>): void
}

export function createSettingsStore(initial: AppSettings = defaultSettings()) {
  return createStore<SettingsState>()((set, get) => ({
    settings: initial,
    loaded: false,
    setSettings: (settings) => set({ settings, loaded: true }),
    update: (patch) => set({ settings: { ...get().settings, ...patch } }),
  }))
}

export const settingsStore = createSettingsStore()

export function useSettings<T>(selector: (settings: AppSettings) => T): T {
  return useStore(settingsStore, (s) => selector(s.settings))
}
