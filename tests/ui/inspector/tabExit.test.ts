import { describe, expect, it } from 'vitest'
import { armTabExitOnEscape } from '../../../src/ui/inspector/tabExit.ts'

const KEYS = { Escape: 9, Tab: 2, modifiers: [4, 5] }
const LETTER = 31

function fakeEditor() {
  let onKey: (event: { keyCode: number }) => void = () => {}
  let onBlur: () => void = () => {}
  const modes: boolean[] = []
  armTabExitOnEscape(
    {
      onKeyDown: (listener) => (onKey = listener),
      onDidBlurEditorText: (listener) => (onBlur = listener),
      updateOptions: ({ tabFocusMode }) => modes.push(tabFocusMode),
    },
    KEYS,
  )
  return { key: (keyCode: number) => onKey({ keyCode }), blur: () => onBlur(), modes }
}

describe('armTabExitOnEscape', () => {
  it('turns tab focus mode on with Escape and off when the focus leaves', () => {
    const editor = fakeEditor()
    editor.key(KEYS.Escape)
    editor.key(KEYS.Escape)
    editor.key(4) // Shift, before Shift+Tab
    editor.key(KEYS.Tab)
    editor.blur()
    expect(editor.modes).toEqual([true, false])
  })

  it('turns it off again at any other key, so Tab indents as before', () => {
    const editor = fakeEditor()
    editor.key(LETTER)
    editor.blur()
    expect(editor.modes).toEqual([])
    editor.key(KEYS.Escape)
    editor.key(LETTER)
    editor.key(LETTER)
    expect(editor.modes).toEqual([true, false])
  })
})
