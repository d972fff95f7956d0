/**
 * Copy, cut and paste through the SYSTEM clipboard (document events), so nodes travel between
 * flows, tabs and windows. The payload is JSON text (store/clipboard.ts). Text fields keep
 * their own clipboard behaviour. Other JSON pasted on the canvas is taken for a workflow file
 * (someone copied a file's text): it is imported like a dropped file, as a new flow, or refused
 * with each problem and its JSON path. Anything else is not silently dropped: a note says why
 * nothing was pasted.
 */
import { useEffect } from 'react'
import { PASTE_OFFSET_PX } from '../../defaults.ts'
import { parseClipboard, serializeClipboard } from '../../store/clipboard.ts'
import { flowStore } from '../../store/flowStore.ts'
import { noticeStore } from '../../store/noticeStore.ts'
import { refuseReadOnly } from './commands.ts'
import { hasTextSelection, isEditableTarget } from './editable.ts'

export interface ClipboardOptions {
  /** Imports pasted workflow text (the import service, given as a file); absent until ready. */
  importWorkflow?(text: string): void
}

/** Whether pasted text is meant as a file: JSON objects only (prose, a URL, code are not). */
function looksLikeJsonObject(text: string): boolean {
  const trimmed = text.trim()
  return trimmed.startsWith('{') && trimmed.endsWith('}')
}

export function useClipboard({ importWorkflow }: ClipboardOptions = {}): void {
  useEffect(() => {
    // Pasting the same payload again moves each copy one step further, so copies never stack.
    let lastText = ''
    let pasteCount = 0

    const copySelection = (event: ClipboardEvent): boolean => {
      if (isEditableTarget(event.target) || hasTextSelection() || !event.clipboardData) return false
      const { nodes, edges, selectedNodeIds } = flowStore.getState()
      const text = serializeClipboard(nodes, edges, selectedNodeIds)
      if (text === null) return false
      event.clipboardData.setData('text/plain', text)
      event.preventDefault()
      lastText = text
      pasteCount = 0
      return true
    }
    const onCopy = (event: ClipboardEvent): void => {
      if (copySelection(event)) {
        noticeStore
          .getState()
          .note('canvas.copied', { count: flowStore.getState().selectedNodeIds.size }, 'success')
      }
    }
    const onCut = (event: ClipboardEvent): void => {
      if (flowStore.getState().readOnly) {
        // Copy is fine in a view; removing is not.
        if (copySelection(event)) refuseReadOnly()
        return
      }
      if (copySelection(event)) {
        pasteCount = -1
        flowStore.getState().actions.removeSelection()
      }
    }
    const onPaste = (event: ClipboardEvent): void => {
      if (isEditableTarget(event.target) || !event.clipboardData) return
      const text = event.clipboardData.getData('text/plain')
      const payload = parseClipboard(text)
      if (!payload) {
        pasteOther(event, text)
        return
      }
      event.preventDefault()
      if (refuseReadOnly()) return
      if (text !== lastText) {
        lastText = text
        pasteCount = 0
      }
      pasteCount += 1
      const step = PASTE_OFFSET_PX * pasteCount
      const ids = flowStore
        .getState()
        .actions.insertCopies(payload.nodes, payload.edges, { x: step, y: step })
      noticeStore.getState().note('canvas.pasted', { count: ids.length }, 'success')
    }
    const pasteOther = (event: ClipboardEvent, text: string): void => {
      if (text.trim() === '') return
      event.preventDefault()
      if (refuseReadOnly()) return
      if (looksLikeJsonObject(text) && importWorkflow) importWorkflow(text)
      else noticeStore.getState().note('canvas.pasteNothing', undefined, 'info')
    }
    document.addEventListener('copy', onCopy)
    document.addEventListener('cut', onCut)
    document.addEventListener('paste', onPaste)
    return () => {
      document.removeEventListener('copy', onCopy)
      document.removeEventListener('cut', onCut)
      document.removeEventListener('paste', onPaste)
    }
  }, [importWorkflow])
}
