/**
 * Questions and reports of a workflow import: "a flow with this id exists: copy / replace /
 * cancel?", and the short report shown after a PatchCat import (or any import with notes).
 */
import { createStore, useStore } from 'zustand'

export type ConflictChoice = 'copy' | 'replace' | 'cancel'

export interface ConflictQuestion {
  id: number
  fileName: string
  /** The flow that would be replaced. */
  existingName: string
  importedName: string
  resolve(choice: ConflictChoice): void
}

/** What an accepted import did, in counts the UI can word in any language, plus storage's notes. */
export interface ImportReport {
  fileName: string
  flowName: string
  source: 'wardflow' | 'patchcat'
  nodeCount: number
  edgeCount: number
  /** Node types and how many of each. */
  types: ReadonlyArray<{ type: string; count: number }>
  /** Placeholders for node types Wardflow does not run: node id and original type. */
  unsupported: ReadonlyArray<{ id: string; originalType: string }>
  /** Storage's notes (plain English): what was renamed, rewritten or not carried over. */
  notes: readonly string[]
  /** Catalogue keys of the notes that have one, matched by their English text. */
  keyedNotes?: ReadonlyArray<{ text: string; key: string; params?: Record<string, string | number> }>
}

export interface ImportUiState {
  conflict: ConflictQuestion | null
  report: ImportReport | null
  askConflict(question: Omit<ConflictQuestion, 'id' | 'resolve'>): Promise<ConflictChoice>
  answerConflict(id: number, choice: ConflictChoice): void
  showReport(report: ImportReport | null): void
}

let seq = 0

export function createImportUiStore() {
  return createStore<ImportUiState>()((set, get) => ({
    conflict: null,
    report: null,
    askConflict: (question) =>
      new Promise<ConflictChoice>((resolve) => {
        get().conflict?.resolve('cancel')
        seq += 1
        set({ conflict: { ...question, id: seq, resolve } })
      }),
    answerConflict: (id, choice) => {
      const current = get().conflict
      if (current === null || current.id !== id) return
      set({ conflict: null })
      current.resolve(choice)
    },
    showReport: (report) => set({ report }),
  }))
}

export const importUiStore = createImportUiStore()

export function useImportUi<T>(selector: (state: ImportUiState) => T): T {
  return useStore(importUiStore, selector)
}
