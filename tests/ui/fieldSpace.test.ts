// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import { isEditableTarget } from '../../src/ui/canvas/editable.ts'
import { keepSpaceInFields } from '../../src/ui/canvas/useFieldSpace.ts'

afterEach(() => {
  document.body.replaceChildren()
})

/** Dispatches a key on `target` and reports whether a listener on the document saw it. */
function documentSees(target: HTMLElement, key: string, code: string): boolean {
  const root = document.documentElement
  let seen = false
  const spy = (): void => {
    seen = true
  }
  root.addEventListener('keydown', keepSpaceInFields)
  document.addEventListener('keydown', spy)
  target.dispatchEvent(new KeyboardEvent('keydown', { key, code, bubbles: true, cancelable: true }))
  document.removeEventListener('keydown', spy)
  root.removeEventListener('keydown', keepSpaceInFields)
  return seen
}

function mount(html: string): HTMLElement {
  document.body.innerHTML = html
  const el = document.querySelector<HTMLElement>('[data-target]')
  if (!el) throw new Error('no target')
  return el
}

describe('space typed in a field', () => {
  it("does not reach the canvas's document key handling from Monaco's input surface", () => {
    // Monaco in current Chromium: a plain div (an EditContext host) inside .monaco-editor.
    const surface = mount(
      '<div class="monaco-editor"><div class="native-edit-context" data-target tabindex="0"></div></div>',
    )
    expect(documentSees(surface, ' ', 'Space')).toBe(false)
    // Other keys still travel (Escape closes dialogs, Ctrl+S saves).
    expect(documentSees(surface, 'Escape', 'Escape')).toBe(true)
  })

  it('stops for every editable kind and for none of the others', () => {
    const editable = [
      '<input data-target>',
      '<input type="search" data-target>',
      '<textarea data-target></textarea>',
      '<div contenteditable="true" data-target></div>',
      '<div role="textbox" tabindex="0" data-target></div>',
    ]
    for (const html of editable) {
      const el = mount(html)
      expect(isEditableTarget(el), html).toBe(true)
      expect(documentSees(el, ' ', 'Space'), html).toBe(false)
    }
    for (const html of [
      '<button data-target>x</button>',
      '<input type="checkbox" data-target>',
      '<div tabindex="0" data-target></div>',
    ]) {
      const el = mount(html)
      expect(isEditableTarget(el), html).toBe(false)
      expect(documentSees(el, ' ', 'Space'), html).toBe(true)
    }
  })

  it('recognises an element that hosts an EditContext', () => {
    const el = mount('<div tabindex="0" data-target></div>')
    Object.defineProperty(el, 'editContext', { value: {}, configurable: true })
    expect(isEditableTarget(el)).toBe(true)
  })
})
