/**
 * Copy, cut and paste through the SYSTEM clipboard (document events), so nodes travel between
 * flows, tabs and windows. The payload is JSON text (store/clipboard.ts). Text fields keep
 * their own clipboard behaviour.
 */
import { useEffect } from 'react'
import { PASTE_OFFSET_PX } from '../../defaults.ts'
import { parseClipboard, serializeClipboard } from '../../store/clipboard.ts'
import { flowStore } from '../../store/flowStore.ts'
import { noticeStore } from '../../store/noticeStore.ts'
import { refuseReadOnly } from './commands.ts'
import { hasTextSelection, isEditableTarget } from './editable.ts'

export function useClipboard(): void {
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
      if (!payload) return
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
    document.addEventListener('copy', onCopy)
    document.addEventListener('cut', onCut)
    document.addEventListener('paste', onPaste)
    return () => {
      document.removeEventListener('copy', onCopy)
      document.removeEventListener('cut', onCut)
      document.removeEventListener('paste', onPaste)
    }
  }, [])
}
