/**
 * Messages for the person: one error banner (role=alert) for failures that need attention
 * (storage, import, run), and short status notes (role=status) such as a refused connection.
 */
import { createStore, useStore } from 'zustand'

export interface BannerError {
  /** A FlowError code or another stable key; the UI looks up `errors:<code>` first. */
  code: string
  /** Plain-English detail, shown when the catalogue has no entry for `code`. */
  message: string
  /**
   * A more specific catalogue key (`ns:key`, interpolated with `details`) that wins over
   * `errors:<code>`: e.g. a refused import names its file, which the code's generic text cannot.
   */
  messageKey?: string
  details?: Readonly<Record<string, string | number | boolean>>
  /** Each problem with its JSON path (a refused import), listed under the message. */
  problems?: ReadonlyArray<BannerProblem>
  /**
   * The flow the failure belongs to (a run, its history): the banner goes when another flow
   * opens, and is never shown over another flow. Without it the banner is the app's (storage, a
   * refused file) and stays until dismissed.
   */
  flowId?: string
}

/** One problem of a refused import: English `message`, and the catalogue `key` the UI prefers. */
export interface BannerProblem {
  path: string
  message: string
  key?: string
  params?: Readonly<Record<string, string | number>>
}

export interface StatusNote {
  id: number
  /** An i18n key (with `values`) so the note follows the language. */
  key: string
  values?: Readonly<Record<string, string | number>>
  tone: 'info' | 'warning' | 'success'
}

export interface NoticeState {
  banner: BannerError | null
  notes: readonly StatusNote[]
  /** The open flow, as last told by flowOpened (null before the first). */
  openFlowId: string | null
  showError(error: BannerError): void
  dismissError(): void
  /** Another flow is open: the banner of the previous flow goes; the app's banners stay. */
  flowOpened(flowId: string | null): void
  note(key: string, values?: StatusNote['values'], tone?: StatusNote['tone']): number
  dismissNote(id: number): void
}

let seq = 0

export function createNoticeStore() {
  return createStore<NoticeState>()((set, get) => ({
    banner: null,
    notes: [],
    openFlowId: null,
    showError: (banner) => {
      // A failure of a flow that is no longer open (its run ended after a switch) is not shown
      // over another flow; its run record tells the story.
      const open = get().openFlowId
      if (banner.flowId !== undefined && open !== null && banner.flowId !== open) return
      set({ banner })
    },
    dismissError: () => set({ banner: null }),
    flowOpened: (flowId) => {
      const banner = get().banner
      const stale = banner !== null && banner.flowId !== undefined && banner.flowId !== flowId
      set(stale ? { openFlowId: flowId, banner: null } : { openFlowId: flowId })
    },
    note: (key, values, tone = 'info') => {
      seq += 1
      const note: StatusNote = { id: seq, key, tone }
      if (values) note.values = values
      // Keep the last few only: a burst of refused connections must not stack up.
      set({ notes: [...get().notes.slice(-2), note] })
      return seq
    },
    dismissNote: (id) => set({ notes: get().notes.filter((n) => n.id !== id) }),
  }))
}

export const noticeStore = createNoticeStore()

export function useNotices<T>(selector: (state: NoticeState) => T): T {
  return useStore(noticeStore, selector)
}
