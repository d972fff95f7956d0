import { describe, expect, it } from 'vitest'
import { CONSOLE_MAX_CHARS } from '../../src/defaults.ts'
import { createRunStore, IDLE_RUN_STATE } from '../../src/store/runStore.ts'

describe('run store', () => {
  it('merges streamed chunks of one kind and keeps guard lines separate', () => {
    const store = createRunStore()
    const { actions } = store.getState()
    actions.setStatus('a', 'running')
    actions.appendText('a', 'output', 'Hel')
    actions.appendText('a', 'output', 'lo')
    actions.appendLine('a', { kind: 'guard', text: 'Loop hint', layer: 'loop', level: 'hint' })
    actions.appendText('a', 'output', '!')
    const a = store.getState().nodes['a']
    expect(a?.status).toBe('running')
    expect(a?.consoleLines).toEqual([
      { kind: 'output', text: 'Hello' },
      { kind: 'guard', text: 'Loop hint', layer: 'loop', level: 'hint' },
      { kind: 'output', text: '!' },
    ])
  })

  it('keeps a node console under the character cap by dropping the oldest text', () => {
    const store = createRunStore()
    const chunk = 'x'.repeat(Math.ceil(CONSOLE_MAX_CHARS / 3))
    for (let i = 0; i < 5; i += 1) store.getState().actions.appendLine('a', { kind: 'log', text: chunk })
    store.getState().actions.appendText('a', 'output', 'last')
    const lines = store.getState().nodes['a']?.consoleLines ?? []
    expect(lines.reduce((n, l) => n + l.text.length, 0)).toBeLessThanOrEqual(CONSOLE_MAX_CHARS)
    expect(lines[lines.length - 1]?.text).toBe('last')
  })

  it('leaves other nodes untouched and resets to idle', () => {
    const store = createRunStore()
    store.getState().actions.setStatuses({ a: 'queued', b: 'queued' })
    const b = store.getState().nodes['b']
    store.getState().actions.setStatus('a', 'success')
    expect(store.getState().nodes['b']).toBe(b)
    store.getState().actions.reset()
    expect(store.getState().nodes['a'] ?? IDLE_RUN_STATE).toBe(IDLE_RUN_STATE)
  })
})
