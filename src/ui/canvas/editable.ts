/** Input types that hold text; the others (buttons, boxes, sliders) leave keys to the canvas. */
const NON_TEXT_INPUTS: ReadonlySet<string> = new Set([
  'button',
  'checkbox',
  'radio',
  'range',
  'color',
  'file',
  'submit',
  'reset',
])

const EDITABLE_SELECTOR =
  '.monaco-editor, [role="textbox"], [role="searchbox"], [contenteditable]:not([contenteditable="false"])'

/**
 * Whether keyboard and clipboard events belong to a text field rather than to the canvas: form
 * fields, anything editable (contenteditable, an EditContext host, role=textbox) and every part of
 * a Monaco editor (its input surface is an EditContext element in current Chromium, a textarea in
 * older ones, and neither says so on its own).
 */
export function isEditableTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable || hasEditContext(target)) return true
  if (target.closest(EDITABLE_SELECTOR)) return true
  const tag = target.tagName
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag !== 'INPUT') return false
  return !NON_TEXT_INPUTS.has((target as HTMLInputElement).type)
}

/** EditContext (Chromium 121+) makes any element a text input without contenteditable. */
function hasEditContext(element: HTMLElement): boolean {
  return 'editContext' in element && (element as { editContext?: unknown }).editContext != null
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
