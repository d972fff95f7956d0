/**
 * A way out of a code editor for keyboard users. Monaco keeps Tab (it indents), so Tab alone
 * never leaves it; Escape then Tab (or Shift+Tab) does, by turning on Monaco's tab focus mode for
 * that one key. Any other key, or leaving the editor, turns it off again, so Tab indents as
 * before. (Ctrl+M, Monaco's own toggle, still switches the mode for good.)
 */

/** The part of a Monaco editor this needs: keys, blur and one option. */
export interface TabExitEditor {
  onKeyDown(listener: (event: { keyCode: number }) => void): unknown
  onDidBlurEditorText(listener: () => void): unknown
  updateOptions(options: { tabFocusMode: boolean }): void
}

/** Monaco's key codes (monaco.KeyCode), passed in so this file loads without Monaco. */
export interface TabExitKeys {
  Escape: number
  Tab: number
  /** Modifier keys pressed on their own (Shift before Shift+Tab) keep the exit armed. */
  modifiers: readonly number[]
}

export function armTabExitOnEscape(editor: TabExitEditor, keys: TabExitKeys): void {
  let armed = false
  const disarm = (): void => {
    if (!armed) return
    armed = false
    editor.updateOptions({ tabFocusMode: false })
  }
  editor.onKeyDown(({ keyCode }) => {
    if (keyCode === keys.Escape) {
      if (armed) return
      armed = true
      editor.updateOptions({ tabFocusMode: true })
    } else if (keyCode !== keys.Tab && !keys.modifiers.includes(keyCode)) disarm()
  })
  // Tab in tab focus mode moves the focus out, which ends it here.
  editor.onDidBlurEditorText(disarm)
}
