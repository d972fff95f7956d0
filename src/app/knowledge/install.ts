/** Plugs the Knowledge screen into the app: storage through the core's database, the worker, pdf.js on demand. */
import { knowledgeWorker } from '../../knowledge/browserWorker.ts'
import { knowledgeUiStore } from '../../store/knowledgeUiStore.ts'
import { settingsStore } from '../../store/settingsStore.ts'
import type { AppCore, Installed, ServiceInstaller } from '../core/createApp.ts'
import { createEmbedderFor, type EmbedderKeys } from './embedders.ts'
import { createKnowledgeService } from './knowledgeService.ts'

/**
 * Locked keys through the core's key service; the passphrase dialog belongs to the settings
 * screen, so its area loads first (as a run does, app/runs/install.ts).
 */
export function knowledgeKeys(core: Pick<AppCore, 'settings' | 'area'>): EmbedderKeys {
  return {
    isLocked: () => core.settings.keys.isLocked(),
    async requestUnlock() {
      try {
        await core.area('settings')
      } catch {
        return false
      }
      return core.settings.keys.requestUnlock('unlockForRun')
    },
  }
}

/** The embedder of a base, from the settings store's providers. */
export function knowledgeEmbedders(core: Pick<AppCore, 'settings' | 'area'>) {
  return createEmbedderFor(() => settingsStore.getState().settings, knowledgeKeys(core))
}

export const installKnowledge: ServiceInstaller = (core: AppCore): Installed => ({
  services: {
    knowledge: createKnowledgeService({
      db: () => core.db(),
      worker: knowledgeWorker,
      pdfText: async (data) => (await import('../../knowledge/pdfBrowser.ts')).browserPdfText(data),
      now: () => Date.now(),
      newId: () => `doc_${crypto.randomUUID()}`,
      open: () => knowledgeUiStore.getState().openKnowledge(),
      embedderFor: knowledgeEmbedders(core),
      // Bound: some browsers refuse a fetch called with another `this`.
      fetch: globalThis.fetch.bind(globalThis),
    }),
  },
})
