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
  showError(error: BannerError): void
  dismissError(): void
  note(key: string, values?: StatusNote['values'], tone?: StatusNote['tone']): number
  dismissNote(id: number): void
}

let seq = 0

export function createNoticeStore() {
  return createStore<NoticeState>()((set, get) => ({
    banner: null,
    notes: [],
    showError: (banner) => set({ banner }),
    dismissError: () => set({ banner: null }),
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
