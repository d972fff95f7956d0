/** Plugs the Knowledge screen into the app: storage through the core's database, the worker, pdf.js on demand. */
import { knowledgeWorker } from '../../knowledge/browserWorker.ts'
import { knowledgeUiStore } from '../../store/knowledgeUiStore.ts'
import type { AppCore, Installed, ServiceInstaller } from '../core/createApp.ts'
import { createKnowledgeService } from './knowledgeService.ts'

export const installKnowledge: ServiceInstaller = (core: AppCore): Installed => ({
  services: {
    knowledge: createKnowledgeService({
      db: () => core.db(),
      worker: knowledgeWorker,
      pdfText: async (data) => (await import('../../knowledge/pdfBrowser.ts')).browserPdfText(data),
      now: () => Date.now(),
      newId: () => `doc_${crypto.randomUUID()}`,
      open: () => knowledgeUiStore.getState().openKnowledge(),
    }),
  },
})
