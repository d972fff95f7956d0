import { describe, expect, it } from 'vitest'
import { grownLine, streamedLine, textAddedSince, trimmedLine } from '../../src/store/consoleText.ts'
import { IDLE_RUN_STATE, withText, type ConsoleLine } from '../../src/store/runStoreReducer.ts'

describe('streamed console text', () => {
  it('tells what a later version of a segment added, and nothing for the same version', () => {
    const first = streamedLine({ kind: 'output', text: 'a' })
    const second = grownLine(first, 'b')
    const third = grownLine(second, 'cd')
    expect(third.text).toBe('abcd')
    expect(textAddedSince(first, third)).toBe('bcd')
    expect(textAddedSince(second, third)).toBe('cd')
    expect(textAddedSince(third, third)).toBe('')
  })

  it('does not answer for an earlier version, another segment or a line it did not build', () => {
    const first = streamedLine({ kind: 'output', text: 'a' })
    const second = grownLine(first, 'b')
    const other = streamedLine({ kind: 'output', text: 'a' })
    const plain: ConsoleLine = { kind: 'output', text: 'ab' }
    expect(textAddedSince(second, first)).toBeUndefined()
    expect(textAddedSince(other, second)).toBeUndefined()
    expect(textAddedSince(first, plain)).toBeUndefined()
    expect(textAddedSince(plain, second)).toBeUndefined()
  })

  it('keeps every version right when an older one grows again (the shared list is not rewritten)', () => {
    const first = streamedLine({ kind: 'output', text: 'a' })
    const second = grownLine(first, 'b')
    const branch = grownLine(first, 'x')
    const third = grownLine(second, 'c')
    expect(branch.text).toBe('ax')
    expect(textAddedSince(first, third)).toBe('bc')
    expect(textAddedSince(first, branch)).toBeUndefined()
    expect(textAddedSince(branch, grownLine(branch, 'y'))).toBe('y')
  })

  it('keeps the fields of the line it grew', () => {
    const reasoning = streamedLine({ kind: 'reasoning', text: 'think' })
    expect(grownLine(reasoning, 'ing')).toEqual({ kind: 'reasoning', text: 'thinking' })
  })

  it('answers for the versions the reducer makes, and for a version cut at the front', () => {
    const one = withText(IDLE_RUN_STATE, 'output', 'hello ')
    const two = withText(one, 'output', 'world')
    const [before] = one.consoleLines as [ConsoleLine]
    const [after] = two.consoleLines as [ConsoleLine]
    expect(textAddedSince(before, after)).toBe('world')
    const cut = trimmedLine(after, 6)
    expect(cut.text).toBe('world')
    expect(textAddedSince(before, cut)).toBe('world')
    expect(textAddedSince(cut, grownLine(cut, '!'))).toBe('!')
  })
})
