/**
 * A space typed in a field is a space. React Flow pans while Space is held, and to do so it
 * cancels the key's default action (the typed character) unless the key comes from what it
 * recognises as an input: input, textarea, select, an element with a contenteditable attribute,
 * or one inside `.nokey`. Monaco's input surface (an EditContext element in current Chromium) is
 * none of those, so typing `return inputs` stored `returninputs`. Space key events from any
 * editable target (isEditableTarget, the same test the shortcuts and the clipboard use) therefore
 * stop at the root element, after the field has had them and before React Flow's listener on the
 * document sees them. Only Space: other keys (Escape in a dialog, the editor's Ctrl shortcuts)
 * travel on as before.
 */
import { useEffect } from 'react'
import { isEditableTarget } from './editable.ts'

function isSpace(event: KeyboardEvent): boolean {
  return event.code === 'Space' || event.key === ' '
}

export function keepSpaceInFields(event: KeyboardEvent): void {
  if (isSpace(event) && isEditableTarget(event.composedPath()[0] ?? event.target)) {
    event.stopPropagation()
  }
}

export function useFieldSpace(): void {
  useEffect(() => {
    const root = document.documentElement
    root.addEventListener('keydown', keepSpaceInFields)
    root.addEventListener('keyup', keepSpaceInFields)
    return () => {
      root.removeEventListener('keydown', keepSpaceInFields)
      root.removeEventListener('keyup', keepSpaceInFields)
    }
  }, [])
}
