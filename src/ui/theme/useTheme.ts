/**
 * Light/dark theme from settings ('system' follows the OS). The resolved theme is written to
 * <html data-theme> (CSS variables) and remembered for the first paint of the next visit.
 */
import { useEffect, useSyncExternalStore } from 'react'
import type { Theme } from '../../settings/schema.ts'
import { useSettings } from '../../store/settingsStore.ts'

export type ResolvedTheme = 'light' | 'dark'
const STORAGE_KEY = 'wardflow.theme'
const QUERY = '(prefers-color-scheme: dark)'

function subscribe(callback: () => void): () => void {
  const media = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(QUERY) : null
  media?.addEventListener('change', callback)
  return () => media?.removeEventListener('change', callback)
}

function systemPrefersDark(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia(QUERY).matches
  )
}

export function resolveTheme(theme: Theme, prefersDark: boolean): ResolvedTheme {
  if (theme === 'system') return prefersDark ? 'dark' : 'light'
  return theme
}

export function useResolvedTheme(): ResolvedTheme {
  const theme = useSettings((s) => s.theme)
  const prefersDark = useSyncExternalStore(subscribe, systemPrefersDark, () => false)
  return resolveTheme(theme, prefersDark)
}

/** Keeps <html data-theme> in step with the settings. Mount once. */
export function useThemeSync(): void {
  const resolved = useResolvedTheme()
  const theme = useSettings((s) => s.theme)
  useEffect(() => {
    document.documentElement.dataset['theme'] = resolved
    try {
      localStorage.setItem(STORAGE_KEY, theme)
    } catch {
      // First paint falls back to light; settings still hold the choice.
    }
  }, [resolved, theme])
}

/** The theme remembered for the first paint, before settings load. */
export function rememberedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY)
    return value === 'light' || value === 'dark' || value === 'system' ? value : null
  } catch {
    return null
  }
}
