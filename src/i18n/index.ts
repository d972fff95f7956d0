/**
 * i18next setup. Every `src/i18n/<lang>/<area>.json` is a namespace named after its file, so
 * each area owns its catalogue. The language is remembered in localStorage for the first paint
 * (before IndexedDB answers) and in settings for good.
 */
import i18next, { type i18n as I18n, type Resource, type ResourceLanguage } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { languageSchema, type Language } from '../settings/schema.ts'

const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('./*/*.json', { eager: true })

export const LANGUAGES: readonly Language[] = ['en', 'zh-CN']
export const DEFAULT_NAMESPACE = 'ui'
const STORAGE_KEY = 'wardflow.language'

/** `{ en: { ui: {...}, nodes: {...} }, 'zh-CN': {...} }` from the catalogue files. */
export function buildResources(): Resource {
  const resources: Record<string, ResourceLanguage> = {}
  for (const [path, mod] of Object.entries(catalogues)) {
    const match = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(path)
    if (!match) continue
    const [, lang, ns] = match as unknown as [string, string, string]
    resources[lang] ??= {}
    ;(resources[lang] as Record<string, unknown>)[ns] = mod.default
  }
  return resources
}

/** The language to paint first: the remembered one, else English. */
export function initialLanguage(): Language {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY)
    const parsed = languageSchema.safeParse(stored)
    if (parsed.success) return parsed.data
  } catch {
    // Storage can be blocked (private mode, sandboxed iframe): English then.
  }
  return 'en'
}

export function rememberLanguage(language: Language): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, language)
  } catch {
    // Not remembered for the first paint; settings still keep it.
  }
}

let ready: Promise<I18n> | null = null

/** Initialises i18next once; later calls return the same instance. */
export function initI18n(language: Language = initialLanguage()): Promise<I18n> {
  ready ??= i18next
    .use(initReactI18next)
    .init({
      resources: buildResources(),
      lng: language,
      fallbackLng: 'en',
      defaultNS: DEFAULT_NAMESPACE,
      ns: namespaces(),
      interpolation: { escapeValue: false },
      returnNull: false,
    })
    .then(() => {
      syncDocumentLanguage(language)
      return i18next
    })
  return ready
}

function namespaces(): string[] {
  const set = new Set<string>([DEFAULT_NAMESPACE])
  for (const path of Object.keys(catalogues)) {
    const ns = /\/([^/]+)\.json$/.exec(path)?.[1]
    if (ns) set.add(ns)
  }
  return [...set]
}

function syncDocumentLanguage(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language
}

/** Switches the UI language and remembers it for the next first paint. */
export async function changeLanguage(language: Language): Promise<void> {
  await initI18n(language)
  if (i18next.language !== language) await i18next.changeLanguage(language)
  rememberLanguage(language)
  syncDocumentLanguage(language)
}

export { i18next }
