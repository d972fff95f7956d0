/**
 * The part of tab sync (tabSync.ts) that runs only when another tab saved the open flow: the
 * three-way merge and keeping a version that cannot be merged as a copy. A chunk of its own,
 * loaded on the first pull, so the page's start does not carry it (most sessions have one tab).
 */
import type { StoreApi } from 'zustand'
import type { FlowDocument } from '../../engine/index.ts'
import { i18next, ISSUES_NAMESPACE } from '../../i18n/index.ts'
import type { WardflowDb } from '../../storage/index.ts'
import { newFlowId } from '../../store/ids.ts'
import type { FlowSummary, LibraryState } from '../../store/libraryStore.ts'
import type { NoticeState } from '../../store/noticeStore.ts'
import type { StorageModule } from './loadStorage.ts'

export { mergeFlows } from './flowMerge.ts'

export interface CopyDeps {
  storage: StorageModule
  db: WardflowDb
  library: StoreApi<LibraryState>
  notices: StoreApi<NoticeState>
  summaryOf(doc: FlowDocument): FlowSummary
}

/**
 * Keeps a version that cannot be merged as a new flow, so neither is lost, and says so.
 * `conflicts` empty: unsaved edits from an earlier visit that came after another tab's save.
 */
export async function keepCopy(
  deps: CopyDeps,
  version: FlowDocument,
  conflicts: readonly string[],
): Promise<void> {
  const name = i18next.t('tabs.copyName', { ns: ISSUES_NAMESPACE, name: version.metadata.name })
  const copy: FlowDocument = { ...version, metadata: { ...version.metadata, id: newFlowId(), name } }
  await deps.storage.saveFlow(deps.db, copy)
  deps.library.getState().upsertFlow(deps.summaryOf(copy))
  const nodes = conflicts.join(', ')
  deps.notices.getState().showError(
    conflicts.length > 0
      ? {
          code: 'FLOW_CONFLICT',
          messageKey: 'issues:tabs.conflict',
          message: `Another tab changed ${nodes} too. This tab's version is kept; the other tab's version is saved as the flow "${name}".`,
          details: { nodes, copy: name },
        }
      : {
          code: 'FLOW_CONFLICT',
          messageKey: 'issues:tabs.recoveredCopy',
          message: `Unsaved edits of "${version.metadata.name}" could not be applied because the flow was saved elsewhere since. They are kept as the flow "${name}".`,
          details: { name: version.metadata.name, copy: name },
        },
  )
}
