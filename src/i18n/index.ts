/**
 * i18next setup. Every `src/i18n/<lang>/<area>.json` is a namespace named after its file, so
 * each area owns its catalogue. English (the fallback) of the first paint (START_NAMESPACES) is
 * fetched as JSON before the first render; the catalogues of the areas that load on first use
 * (settings screen, import/export, inspector, problem and refusal wording `issues`...) load with
 * their area's code; other languages load on demand, so a person downloads only what they read.
 * The language is remembered in localStorage for the first paint (before IndexedDB answers) and
 * in settings for good.
 */
import i18next, { type i18n as I18n, type Resource, type ResourceLanguage } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { languageSchema, type Language } from '../settings/schema.ts'
import { START_NAMESPACES } from './startNamespaces.ts'

type Catalogue = { default: Record<string, unknown> }
// The start namespaces: in the build their catalogues are fetched as JSON files (preloaded by
// index.html), not bundled as script. The browser parses JSON data much faster than it compiles
// the same bytes as JavaScript, and the start's JavaScript budget (250 KB gzip) is for code.
export { START_NAMESPACES }
/** Every English catalogue as a module loaded on demand (the dev server and tests use it for all). */
const englishModules = import.meta.glob<Catalogue>('./en/*.json')
/** The start catalogues' URLs in the build (keep in step with START_NAMESPACES; a test checks). */
const startUrls = import.meta.glob<string>(['./en/ui.json', './en/nodes.json', './en/run.json'], {
  query: '?url&no-inline',
  import: 'default',
  eager: true,
})
const others = import.meta.glob<Catalogue>(['./*/*.json', '!./en/*.json'])

/** The Agent node's fields: the catalogue loads with the inspector's form (ui/inspector). */
export const AGENT_NAMESPACE = 'agent'

/** The inspector form's words (fields, tools, inheritance): they load with the form (ui/inspector). */
export const INSPECTOR_NAMESPACE = 'inspector'

/** Each node type's field labels and help (`fields:<type>.<field>`): they load with the form too. */
export const FIELDS_NAMESPACE = 'fields'

/** "Connect to…" (the dialog and the inspector's button): it loads with either (App.tsx, ui/inspector). */
export const CONNECT_NAMESPACE = 'connect'

/** The shortcut sheet's catalogue: it loads with the sheet (App.tsx). */
export const SHORTCUTS_NAMESPACE = 'shortcuts'

/** The template gallery's catalogue: it loads with the templates area (app/areas.ts). */
export const TEMPLATES_NAMESPACE = 'templates'

/** The Knowledge screen's catalogue: it loads with the knowledge area (app/areas.ts). */
export const KNOWLEDGE_NAMESPACE = 'knowledge'
/** The batch screen's words: load with the batch area. */
export const BATCH_NAMESPACE = 'batch'

/** Past runs' tools (fork, changes since, model calls): it loads with them (ui/run, app/runs). */
export const DEBUG_NAMESPACE = 'debug'

/** The error catalogue: it loads with the first error banner (ui/kit/ErrorBanner.tsx). */
export const ERRORS_NAMESPACE = 'errors'

/**
 * The wording of problems and refused files: preflight problems (`problem`), zod issues
 * (`validation`), import refusals (`importProblem`) and notes (`importNote`). It loads with
 * the first banner, the problems list, the inspector's form, a run and the import areas
 * (ui/useCatalogues.ts), each of which waits for it before showing any of these texts.
 */
export const ISSUES_NAMESPACE = 'issues'

/**
 * The namespaces of the settings screen and import/export (their English loads with them; the
 * screen words some failures with the error catalogue).
 */
export const SETTINGS_NAMESPACES: readonly string[] = [
  'settings',
  'storage',
  'providers',
  ERRORS_NAMESPACE,
  ISSUES_NAMESPACE,
]

export const LANGUAGES: readonly Language[] = ['en', 'zh-CN']

/**
 * The default flow name (`ui:flows.untitled`) in every language. A blank flow keeps the name it
 * was created with after the person switches language, and only English is bundled, so code that
 * recognises an untouched flow checks this list (a test keeps it equal to the catalogues).
 */
export const UNTITLED_FLOW_NAMES: ReadonlySet<string> = new Set(['Untitled flow', '未命名工作流'])
export const DEFAULT_NAMESPACE = 'ui'
const STORAGE_KEY = 'wardflow.language'

function parsePath(path: string): { lang: string; ns: string } | null {
  const match = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(path)
  return match ? { lang: match[1] as string, ns: match[2] as string } : null
}

async function fetchCatalogue(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
  return (await response.json()) as Record<string, unknown>
}

/**
 * The start catalogues, `{ en: { ui: {...}, nodes: {...}, run: {...} } }`. A catalogue that cannot
 * be fetched (a server hiccup) is tried once more; if it still fails the app starts with the
 * others and shows that namespace's keys, rather than staying blank.
 */
/** The start catalogues' files (tests check they are START_NAMESPACES). */
export function startCatalogueFiles(): string[] {
  return Object.keys(startUrls)
}

export async function startResources(): Promise<Resource> {
  const en: ResourceLanguage = {}
  await Promise.all(
    START_NAMESPACES.map(async (ns) => {
      const path = `./en/${ns}.json`
      const load = async (): Promise<Record<string, unknown>> => {
        const url = startUrls[path]
        if (import.meta.env.PROD && url) return fetchCatalogue(url)
        const module = englishModules[path]
        if (!module) throw new Error(`no catalogue ${path}`)
        return (await module()).default
      }
      try {
        en[ns] = await load().catch(load)
      } catch (error) {
        console.error('Wardflow: a start catalogue did not load', error)
      }
    }),
  )
  return { en }
}

const loaded = new Set<string>(['en'])

/** Loads every catalogue of `language` into i18next (once). */
export async function loadLanguage(language: Language): Promise<void> {
  if (loaded.has(language)) return
  const parts = await Promise.all(
    Object.entries(others)
      .filter(([path]) => parsePath(path)?.lang === language)
      .map(async ([path, load]) => ({ ns: parsePath(path)?.ns ?? '', data: (await load()).default })),
  )
  for (const { ns, data } of parts) i18next.addResourceBundle(language, ns, data, true, true)
  loaded.add(language)
}

const loadedLater = new Map<string, Promise<void>>()

/**
 * Loads the English catalogues of `namespaces` that are not bundled (once each); an area's
 * loader awaits this with its code. Other languages load whole (`loadLanguage`).
 */
export async function loadNamespaces(namespaces: readonly string[]): Promise<void> {
  await Promise.all(
    Object.entries(englishModules)
      .filter(([path]) => {
        const ns = parsePath(path)?.ns ?? ''
        return namespaces.includes(ns) && !START_NAMESPACES.includes(ns)
      })
      .map(([path, load]) => {
        let loading = loadedLater.get(path)
        if (!loading) {
          loading = load().then((mod) => {
            i18next.addResourceBundle('en', parsePath(path)?.ns ?? '', mod.default, true, true)
          })
          // A failed download (offline) is tried again by the next call.
          loading.catch(() => loadedLater.delete(path))
          loadedLater.set(path, loading)
        }
        return loading
      }),
  )
}

/** Every language and namespace there is a catalogue file for (tests compare them). */
export function catalogueFiles(): Array<{ lang: string; ns: string }> {
  return [...Object.keys(englishModules), ...Object.keys(others)].flatMap((path) => parsePath(path) ?? [])
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
  ready ??= startResources()
    .then((resources) =>
      i18next.use(initReactI18next).init({
        resources,
        lng: language,
        fallbackLng: 'en',
        defaultNS: DEFAULT_NAMESPACE,
        ns: namespaces(),
        interpolation: { escapeValue: false },
        returnNull: false,
      }),
    )
    .then(async () => {
      if (language !== 'en') {
        await loadLanguage(language)
        await i18next.changeLanguage(language)
      }
      syncDocumentLanguage(language)
      return i18next
    })
  return ready
}

function namespaces(): string[] {
  const set = new Set<string>([DEFAULT_NAMESPACE])
  for (const { ns } of catalogueFiles()) set.add(ns)
  return [...set]
}

function syncDocumentLanguage(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language
}

/** Switches the UI language and remembers it for the next first paint. */
export async function changeLanguage(language: Language): Promise<void> {
  await initI18n(language)
  await loadLanguage(language)
  if (i18next.language !== language) await i18next.changeLanguage(language)
  rememberLanguage(language)
  syncDocumentLanguage(language)
}

export { i18next }
