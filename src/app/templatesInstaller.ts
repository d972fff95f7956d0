/**
 * Plugs templates into the app: the gallery's service with the browser's fetch, the site URL
 * the bundled files are served from, and "save as a new flow, then open it" through storage and
 * the flows service.
 */
import { i18next } from '../i18n/index.ts'
import { siteUrl } from '../platform/siteUrl.ts'
import { saveFlow } from '../storage/index.ts'
import { newFlowId } from '../store/ids.ts'
import { libraryStore } from '../store/libraryStore.ts'
import { noticeStore } from '../store/noticeStore.ts'
import { galleryStore } from '../ui/templates/galleryStore.ts'
import type { AppCore, Installed } from './createApp.ts'
import { summaryOf } from './flowsService.ts'
import type { AppServices } from './services.ts'
import { createTemplatesService } from './templatesService.ts'

/** `templates:` text in the UI language; undefined when no catalogue has the key. */
function translate(key: string, values?: Record<string, string>): string | undefined {
  return i18next.exists(key, { ns: 'templates' }) ? i18next.t(key, { ns: 'templates', ...values }) : undefined
}

/** The templates installer for installers.ts. */
export function installTemplates(core: AppCore, services: AppServices): Installed {
  const service = createTemplatesService({
    siteUrl: siteUrl(),
    // Bound: some browsers refuse a fetch called with another `this`.
    fetch: globalThis.fetch.bind(globalThis),
    gallery: galleryStore,
    notices: noticeStore,
    async openNewFlow(doc) {
      await saveFlow(await core.db(), doc)
      libraryStore.getState().upsertFlow(summaryOf(doc))
      await services.flows.open(doc.metadata.id)
    },
    newId: newFlowId,
    now: () => new Date().toISOString(),
    translate,
  })
  return { services: { templates: service } }
}
