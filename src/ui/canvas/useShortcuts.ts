/**
 * Keyboard shortcuts of the editor (the sheet in ui/shortcuts lists the same ones). Text fields
 * keep their keys, except undo/redo: config edits are store actions, so the store's history is
 * the one that undoes them. Monaco keeps its own undo.
 */
import { useEffect } from 'react'
import { flowStore } from '../../store/flowStore.ts'
import { noticeStore } from '../../store/noticeStore.ts'
import { uiStore } from '../../store/uiStore.ts'
import type { CanvasCommands } from './commands.ts'
import { isEditableTarget, isInCodeEditor } from './editable.ts'

export interface ShortcutHandlers {
  commands: CanvasCommands
  run?: () => void
  save?: () => void
}

/** Opens "Connect to…" for the one selected node (the keyboard's way to draw an edge). */
export function openConnect(): void {
  const { selectedNodeIds } = flowStore.getState()
  const [id] = selectedNodeIds
  if (selectedNodeIds.size !== 1 || id === undefined) {
    noticeStore.getState().note('connect.needsOne', undefined, 'info')
    return
  }
  uiStore.getState().setConnectFrom(id)
}

function isMod(event: KeyboardEvent): boolean {
  return event.ctrlKey || event.metaKey
}

export function useShortcuts({ commands, run, save }: ShortcutHandlers): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return
      // Dialogs own their keys (Escape closes them, Delete edits their fields).
      if (event.target instanceof Element && event.target.closest('[role="dialog"]')) return
      const key = event.key.toLowerCase()
      const editing = isEditableTarget(event.target)
      if (isMod(event) && !event.altKey) {
        if (isInCodeEditor(event.target)) return
        const redo = (key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey)
        if (key === 'z' && !event.shiftKey) {
          event.preventDefault()
          commands.undo()
        } else if (redo) {
          event.preventDefault()
          commands.redo()
        } else if (key === 's') {
          event.preventDefault()
          save?.()
        } else if (key === 'enter' && run) {
          event.preventDefault()
          run()
        } else if (!editing && key === 'd') {
          event.preventDefault()
          commands.duplicateSelection()
        } else if (!editing && key === 'a') {
          event.preventDefault()
          const { nodes, edges, actions } = flowStore.getState()
          actions.select(
            nodes.map((n) => n.id),
            edges.map((e) => e.id),
          )
        }
        return
      }
      if (editing || event.altKey) return
      if (event.key === 'Delete' || event.key === 'Backspace') {
        event.preventDefault()
        commands.removeSelection()
      } else if (event.key === '?') {
        event.preventDefault()
        uiStore.getState().setShortcutsOpen(true)
      } else if (event.key === 'Escape') {
        flowStore.getState().actions.select([])
      } else if (key === 'f' && !event.shiftKey) {
        commands.fitView()
      } else if (key === 'l' && event.shiftKey) {
        void commands.autoLayout()
      } else if (key === 'g' && !event.shiftKey) {
        uiStore.getState().toggleSnap()
      } else if (key === 'c' && !event.shiftKey) {
        event.preventDefault()
        openConnect()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [commands, run, save])
}
