/**
 * Plugs templates into the app: the gallery's service with the browser's fetch, the site URL
 * the bundled files are served from, and "save as a new flow, then open it" through storage and
 * the flows service.
 */
import type { FetchLike } from '../../engine/index.ts'
import { i18next, UNTITLED_FLOW_NAMES } from '../../i18n/index.ts'
import { siteUrl } from '../../platform/siteUrl.ts'
import { saveFlow } from '../../storage/index.ts'
import type { FlowState } from '../../store/flowStore.ts'
import { newFlowId } from '../../store/ids.ts'
import { libraryStore } from '../../store/libraryStore.ts'
import { noticeStore } from '../../store/noticeStore.ts'
import { galleryStore } from '../../store/galleryStore.ts'
import type { AppCore, Installed, ServiceInstaller } from '../core/createApp.ts'
import { summaryOf } from '../core/flowsService.ts'
import type { AppServices } from '../../ui/services.ts'
import { createTemplatesService } from './templatesService.ts'

/** `templates:` text in the UI language; undefined when no catalogue has the key. */
function translate(key: string, values?: Record<string, string>): string | undefined {
  return i18next.exists(key, { ns: 'templates' }) ? i18next.t(key, { ns: 'templates', ...values }) : undefined
}

/**
 * The blank flow the app creates on a first visit (or "New"): no nodes, the default name (in any
 * language: it may have been created before a language switch). A template opened from it takes
 * its place instead of leaving an empty "Untitled flow" behind.
 * A flow with any node, or a name the person chose, is never touched.
 */
function blankFlowId(state: FlowState): string | null {
  const untouched =
    state.nodes.length === 0 &&
    state.edges.length === 0 &&
    UNTITLED_FLOW_NAMES.has(state.metadata?.name ?? '')
  return untouched ? state.flowId : null
}

export interface TemplatesInstallerOptions {
  /** Defaults to the site the page is served from. */
  siteUrl?: string
  /** Defaults to the browser's fetch. */
  fetch?: FetchLike
}

/** Builds the templates installer; `installTemplates` is the browser's. */
export function templatesInstaller(options: TemplatesInstallerOptions = {}): ServiceInstaller {
  return (core: AppCore, services: AppServices): Installed => {
    const service = createTemplatesService({
      siteUrl: options.siteUrl ?? siteUrl(),
      // Bound: some browsers refuse a fetch called with another `this`.
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      gallery: galleryStore,
      notices: noticeStore,
      async openNewFlow(doc) {
        const blank = blankFlowId(core.flows.getState())
        await saveFlow(await core.db(), doc)
        libraryStore.getState().upsertFlow(summaryOf(doc))
        await services.flows.open(doc.metadata.id)
        if (blank !== null && core.flows.getState().flowId === doc.metadata.id)
          await services.flows.remove(blank)
      },
      newId: newFlowId,
      now: () => new Date().toISOString(),
      translate,
      async ensureKnowledge(spec, fetchFile) {
        // The knowledge area loads with the first template that has a base, not before.
        const { knowledge } = await core.area('knowledge')
        if (knowledge === undefined) throw new Error('the knowledge area did not load')
        if ((await knowledge.listBases()).some((base) => base.id === spec.base)) return
        const files = await Promise.all(
          spec.files.map(async (path) => {
            const name = path.slice(path.lastIndexOf('/') + 1)
            return new File([await fetchFile(path)], name, {
              type: name.endsWith('.html') ? 'text/html' : 'text/markdown',
            })
          }),
        )
        await knowledge.createBase({ id: spec.base, name: spec.name, embedding: { kind: 'demo' } })
        const refused = (await knowledge.addFiles(spec.base, files)).filter((outcome) => !outcome.ok)
        if (refused.length > 0) throw new Error(refused.map((outcome) => outcome.name).join(', '))
      },
    })
    return { services: { templates: service } }
  }
}

export const installTemplates: ServiceInstaller = templatesInstaller()
