import { describe, expect, it } from 'vitest'
import { CODE_EDITOR_PENDING_ECHOES_MAX } from '../../src/defaults.ts'
import { EditorEchoes } from '../../src/ui/inspector/editorEchoes.ts'

describe('EditorEchoes', () => {
  it('treats a late render of an older own text as an echo, not as a change to write back', () => {
    const echoes = new EditorEchoes()
    echoes.sent('{ "t"}')
    echoes.sent('{ "ty"}')
    echoes.sent('{ "typ"}')
    // The field renders the text of two keys ago, then catches up: neither replaces the editor's.
    expect(echoes.isExternal('{ "t"}')).toBe(false)
    expect(echoes.isExternal('{ "typ"}')).toBe(false)
  })

  it('sees a value the editor never reported (undo in the store, another node) as external', () => {
    const echoes = new EditorEchoes()
    echoes.sent('return inputs')
    expect(echoes.isExternal('return inputs')).toBe(false)
    expect(echoes.isExternal('return input')).toBe(true)
    // An answered text does not count as the editor's any more: undoing back to it is external.
    expect(echoes.isExternal('return inputs')).toBe(true)
  })

  it('forgets texts that were never handed back beyond its bound', () => {
    const echoes = new EditorEchoes()
    for (let i = 0; i <= CODE_EDITOR_PENDING_ECHOES_MAX; i += 1) echoes.sent(`v${i}`)
    expect(echoes.isExternal('v0')).toBe(true)
  })
})
