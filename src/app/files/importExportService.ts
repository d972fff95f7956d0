/**
 * Workflow files: `export-workflow` downloads the open flow as `<name>.wardflow.json`;
 * `import-workflow` (file chooser or a file dropped on the canvas) imports one. Every import is
 * validated in full first: a refused file shows each problem with its JSON path in the error
 * banner and changes nothing. An accepted file becomes a new flow with a fresh id; when its id
 * matches a saved flow the person chooses: import as a copy, replace that flow, or cancel.
 */
import type { StoreApi } from 'zustand'
import { IMPORT_MAX_FILE_BYTES } from '../../defaults.ts'
import { toFlowError, type FlowDocument } from '../../engine/index.ts'
import { i18next } from '../../i18n/index.ts'
import { nodeCatalog } from '../../nodes/registry.ts'
import {
  asNewFlow,
  exportWorkflowText,
  listFlows,
  loadFlow,
  parseWorkflowText,
  saveFlow,
  workflowFileName,
} from '../../storage/index.ts'
import { readTextFile } from '../../storage/textFile.ts'
import {
  EMPTY_VIEWPORT,
  flowStore as defaultFlowStore,
  selectDocument,
  type FlowStore,
} from '../../store/flowStore.ts'
import { libraryStore as defaultLibrary, type LibraryState } from '../../store/libraryStore.ts'
import {
  noticeStore as defaultNotices,
  type BannerProblem,
  type NoticeState,
} from '../../store/noticeStore.ts'
import {
  importUiStore as defaultImportUi,
  type ImportReport,
  type ImportUiState,
} from '../../store/importUiStore.ts'
import { dbGetter, type DbSource } from '../core/databaseService.ts'
import { browserDownload, type Downloader } from '../core/downloadService.ts'
import type { ExportService, FlowsService, ImportService } from '../../ui/services.ts'
import { collectCalledFlows } from '../../nodes/flowLookup.ts'
import { engineRegistry } from '../../nodes/registry.ts'
import { placeSubflows } from './subflowImport.ts'

export type Translate = (key: string, values?: Record<string, string | number>) => string

export interface WorkflowIoDeps {
  db: DbSource
  flows: FlowsService
  flowStore?: FlowStore
  library?: StoreApi<LibraryState>
  notices?: StoreApi<NoticeState>
  importUi?: StoreApi<ImportUiState>
  download?: Downloader
  now?(): number
  newFlowId?(): string
  /** `settings:` catalogue lookup; i18next by default. */
  translate?: Translate
}

export type ImportOutcome =
  { status: 'imported'; flowId: string; replaced: boolean } | { status: 'refused' } | { status: 'cancelled' }

export interface WorkflowIoService extends ImportService, ExportService {
  /** Imports workflow text (what importFile reads); the outcome is for callers and tests. */
  importText(text: string, fileName: string): Promise<ImportOutcome>
}

const i18nTranslate: Translate = (key, values) => i18next.t(key, { ns: 'settings', ...values })

function defaultFlowId(): string {
  return `flow_${globalThis.crypto.randomUUID()}`
}

function report(
  doc: FlowDocument,
  fileName: string,
  source: 'wardflow' | 'patchcat',
  notes: string[],
  keyedNotes: ImportReport['keyedNotes'] = [],
): ImportReport {
  const counts = new Map<string, number>()
  const unsupported: Array<{ id: string; originalType: string }> = []
  for (const node of doc.nodes) {
    counts.set(node.type, (counts.get(node.type) ?? 0) + 1)
    if (nodeCatalog.role(node.type) === 'placeholder') {
      const original = node.data.config['originalType']
      unsupported.push({ id: node.id, originalType: typeof original === 'string' ? original : '?' })
    }
  }
  return {
    fileName,
    flowName: doc.metadata.name,
    source,
    nodeCount: doc.nodes.length,
    edgeCount: doc.edges.length,
    types: [...counts].map(([type, count]) => ({ type, count })),
    unsupported,
    notes,
    keyedNotes,
  }
}

export function createWorkflowIoService(deps: WorkflowIoDeps): WorkflowIoService {
  const flowStore = deps.flowStore ?? defaultFlowStore
  const db = dbGetter(deps.db)
  const library = deps.library ?? defaultLibrary
  const notices = deps.notices ?? defaultNotices
  const importUi = deps.importUi ?? defaultImportUi
  const download = deps.download ?? browserDownload
  const now = deps.now ?? (() => Date.now())
  const newFlowId = deps.newFlowId ?? defaultFlowId
  const t = deps.translate ?? i18nTranslate

  function refuse(fileName: string, problems: ReadonlyArray<BannerProblem>): ImportOutcome {
    notices.getState().showError({
      code: 'IMPORT_INVALID',
      message: t('import.refused', { file: fileName, count: problems.length }),
      messageKey: 'settings:import.refused',
      details: { file: fileName, count: problems.length },
      problems: problems.map(({ path, message, key, params }) => ({ path, message, key, params })),
    })
    return { status: 'refused' }
  }

  async function importText(text: string, fileName: string): Promise<ImportOutcome> {
    const parsed = parseWorkflowText(text)
    if (!parsed.ok) return refuse(fileName, parsed.problems)
    const incoming = parsed.doc
    const existing = (await listFlows(await db())).find((f) => f.id === incoming.metadata.id)
    let id = newFlowId()
    let name = incoming.metadata.name
    let replaced = false
    if (existing !== undefined) {
      const choice = await importUi.getState().askConflict({
        fileName,
        existingName: existing.name,
        importedName: incoming.metadata.name,
      })
      if (choice === 'cancel') return { status: 'cancelled' }
      if (choice === 'replace') {
        id = existing.id
        replaced = true
      } else name = t('import.copyName', { name })
    }
    const stamp = new Date(now()).toISOString()
    // The flows it carries for its Sub-flow nodes: new, the same as a saved one, or a copy.
    const placement = await placeSubflows(incoming, parsed.subflows, {
      saved: async (flowId) => (await loadFlow(await db(), flowId))?.doc,
      newFlowId,
      copyName: (flowName) => t('import.copyName', { name: flowName }),
      now: stamp,
    })
    // The file's viewport was made on another screen: the canvas fits the flow instead.
    const doc = asNewFlow(
      { ...placement.main, viewport: { ...EMPTY_VIEWPORT }, metadata: { ...incoming.metadata, name } },
      id,
      stamp,
    )
    // Pending edits of the open flow are written first, so they cannot land on top of this one.
    await deps.flows.flush()
    for (const sub of placement.save) {
      await saveFlow(await db(), sub)
      library.getState().upsertFlow({
        id: sub.metadata.id,
        name: sub.metadata.name,
        updatedAt: sub.metadata.updatedAt,
        nodeCount: sub.nodes.length,
      })
    }
    await saveFlow(await db(), doc)
    library
      .getState()
      .upsertFlow({ id, name: doc.metadata.name, updatedAt: stamp, nodeCount: doc.nodes.length })
    if (replaced && flowStore.getState().flowId === id) flowStore.getState().actions.load(doc)
    else await deps.flows.open(id)
    if (notices.getState().banner?.code === 'IMPORT_INVALID') notices.getState().dismissError()
    if (parsed.source === 'patchcat' || parsed.notes.length > 0) {
      importUi.getState().showReport(report(doc, fileName, parsed.source, parsed.notes, parsed.keyedNotes))
    } else {
      notices.getState().note('settings:import.done', { name: doc.metadata.name }, 'success')
    }
    return { status: 'imported', flowId: id, replaced }
  }

  return {
    importText,
    async importFile(file) {
      if (file.size > IMPORT_MAX_FILE_BYTES) {
        const mb = (n: number): string => (n / (1024 * 1024)).toFixed(1)
        refuse(file.name, [
          {
            path: '',
            message: t('import.tooLarge', { size: mb(file.size), max: mb(IMPORT_MAX_FILE_BYTES) }),
          },
        ])
        return
      }
      let text: string
      try {
        text = await readTextFile(file)
      } catch {
        refuse(file.name, [{ path: '', message: t('import.unreadable') }])
        return
      }
      try {
        await importText(text, file.name)
      } catch (error) {
        // Storage refused the save (quota, blocked): the banner says why; nothing was opened.
        const flowError = toFlowError(error, 'STORAGE_FAILED')
        notices.getState().showError({
          code: flowError.code,
          message: flowError.message,
          ...(flowError.details ? { details: flowError.details } : {}),
        })
      }
    },
    async exportWorkflow() {
      const doc = selectDocument(flowStore.getState())
      if (doc === null) return
      // Every flow it calls, directly or through others, goes into the file: it runs anywhere.
      const database = await db()
      const called = await collectCalledFlows(
        doc,
        engineRegistry,
        async (flowId) => (await loadFlow(database, flowId).catch(() => undefined))?.doc,
      )
      download(workflowFileName(doc.metadata.name), exportWorkflowText(doc, called))
    },
  }
}
