/** Whether keyboard and clipboard events belong to a text field rather than to the canvas. */
export function isEditableTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target.closest('.monaco-editor')) return true
  const tag = target.tagName
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag !== 'INPUT') return false
  const type = (target as HTMLInputElement).type
  return !['button', 'checkbox', 'radio', 'range', 'color', 'file', 'submit', 'reset'].includes(type)
}

/** True while the person has selected text somewhere on the page (then copy is theirs). */
export function hasTextSelection(): boolean {
  const selection = typeof window === 'undefined' ? null : window.getSelection()
  return selection !== null && !selection.isCollapsed && selection.toString() !== ''
}

/** Monaco handles its own undo and shortcuts. */
export function isInCodeEditor(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('.monaco-editor') !== null
}
