/**
 * The templates service wired to real parts for tests: public/ served from disk under a
 * sub-path, real gallery and notice stores, a fake-indexeddb database, and the real catalogues
 * (i18next instance per language) for names, labels and notes.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import i18next from 'i18next'
import type { FlowDocument } from '../../src/engine/index.ts'
import {
  createTemplatesService,
  type TemplatesServiceDeps,
} from '../../src/app/templates/templatesService.ts'
import { loadFlow, openWardflowDb, saveFlow, type WardflowDb } from '../../src/storage/index.ts'
import { createNoticeStore } from '../../src/store/noticeStore.ts'
import { createGalleryStore } from '../../src/store/galleryStore.ts'
import { SITE_BASE, siteFetch } from '../templates/harness.ts'

function catalogue(lang: string): Record<string, unknown> {
  const path = resolve(process.cwd(), `src/i18n/${lang}/templates.json`)
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}

/** A `translate` like the app's: the key in `lang` (English as fallback), or undefined. */
export async function translator(lang: 'en' | 'zh-CN'): Promise<TemplatesServiceDeps['translate']> {
  const i18n = i18next.createInstance()
  await i18n.init({
    lng: lang,
    fallbackLng: 'en',
    ns: ['templates'],
    defaultNS: 'templates',
    resources: { en: { templates: catalogue('en') }, 'zh-CN': { templates: catalogue('zh-CN') } },
    interpolation: { escapeValue: false },
  })
  return (key, values) => (i18n.exists(key) ? i18n.t(key, { ...values }) : undefined)
}

export interface Harness {
  service: ReturnType<typeof createTemplatesService>
  gallery: ReturnType<typeof createGalleryStore>
  notices: ReturnType<typeof createNoticeStore>
  db: WardflowDb
  /** Every flow the service asked to open, in order. */
  opened: FlowDocument[]
  requests: string[]
  load(id: string): Promise<FlowDocument | undefined>
}

export interface HarnessOptions {
  lang?: 'en' | 'zh-CN'
  /** Replaces the site fetch (to break a file, delay an answer, ...). */
  fetch?: (site: TemplatesServiceDeps['fetch']) => TemplatesServiceDeps['fetch']
  /** The gallery store to drive (the app's own one for DOM tests); a fresh one by default. */
  gallery?: ReturnType<typeof createGalleryStore>
}

let seq = 0

export async function templatesHarness(options: HarnessOptions = {}): Promise<Harness> {
  const db = await openWardflowDb(`templates-${crypto.randomUUID()}`)
  const gallery = options.gallery ?? createGalleryStore()
  const notices = createNoticeStore()
  const requests: string[] = []
  const site = siteFetch(requests)
  const opened: FlowDocument[] = []
  const service = createTemplatesService({
    siteUrl: SITE_BASE,
    fetch: options.fetch ? options.fetch(site) : site,
    gallery,
    notices,
    async openNewFlow(doc) {
      await saveFlow(db, doc)
      opened.push(doc)
    },
    newId: () => `flow_new_${++seq}`,
    now: () => '2026-12-01T10:00:00.000Z',
    translate: await translator(options.lang ?? 'en'),
  })
  return {
    service,
    gallery,
    notices,
    db,
    opened,
    requests,
    load: async (id) => (await loadFlow(db, id))?.doc,
  }
}
