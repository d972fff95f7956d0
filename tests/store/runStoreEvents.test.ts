import { describe, expect, it } from 'vitest'
import { CONSOLE_MAX_CHARS } from '../../src/defaults.ts'
import type { RunEvent } from '../../src/engine/index.ts'
import { createRunStore } from '../../src/store/runStore.ts'
import { replayRunEvents } from '../../src/store/runStoreReducer.ts'

const usage = { prompt: 3, completion: 4, total: 7, estimated: true }
let clock = 1_000
const ev = <T extends RunEvent['type']>(
  type: T,
  fields: Omit<Extract<RunEvent, { type: T }>, 'type' | 'runId' | 'at'>,
): RunEvent => ({ type, runId: 'r1', at: (clock += 10), ...fields }) as unknown as RunEvent

describe('run store: engine events', () => {
  it('queues the run nodes, tracks progress, outputs, usage and failures', () => {
    const store = createRunStore()
    const { applyEvents } = store.getState().actions
    applyEvents([ev('runStart', { flowId: 'f', nodeIds: ['a', 'b', 'c', 'd'] })])
    expect(Object.values(store.getState().nodes).map((n) => n.status)).toEqual([
      'queued',
      'queued',
      'queued',
      'queued',
    ])
    applyEvents([
      ev('nodeStart', { nodeId: 'a', inputs: {} }),
      ev('nodeFinish', { nodeId: 'a', status: 'success', output: { text: 'hi' }, durationMs: 12, usage }),
      ev('nodeStart', { nodeId: 'b', inputs: { a: { text: 'hi' } } }),
      ev('nodeError', {
        nodeId: 'b',
        code: 'HTTP_STATUS',
        message: 'The server answered 500.',
        durationMs: 5,
      }),
      ev('nodeSkipped', { nodeId: 'c', reason: 'Skipped because "b" failed.' }),
    ])
    const state = store.getState()
    expect(state.nodes['a']).toMatchObject({
      status: 'success',
      output: { text: 'hi' },
      durationMs: 12,
      usage,
    })
    expect(state.nodes['b']).toMatchObject({
      status: 'error',
      inputs: { a: { text: 'hi' } },
      error: { code: 'HTTP_STATUS', message: 'The server answered 500.' },
    })
    expect(state.nodes['b']?.consoleLines).toEqual([{ kind: 'error', text: 'The server answered 500.' }])
    expect(state.nodes['c']).toMatchObject({ status: 'skipped', skipReason: 'Skipped because "b" failed.' })
    expect(state.nodes['d']?.status).toBe('queued')
    expect(state.run).toMatchObject({ status: 'running', total: 4, done: 3 })
    expect(state.run?.failures).toEqual([
      { nodeId: 'b', code: 'HTTP_STATUS', message: 'The server answered 500.' },
    ])

    applyEvents([ev('runFinish', { status: 'error', usage, durationMs: 99 })])
    expect(store.getState().run).toMatchObject({ status: 'error', durationMs: 99, usage })
  })

  it('shows a stopped node as stopped, not failed', () => {
    const view = replayRunEvents([
      ev('runStart', { flowId: 'f', nodeIds: ['a', 'b'] }),
      ev('nodeStart', { nodeId: 'a', inputs: {} }),
      ev('nodeChunk', { nodeId: 'a', text: 'partial', channel: 'output' }),
      ev('nodeError', { nodeId: 'a', code: 'CANCELLED', message: 'The run was stopped.', durationMs: 3 }),
      ev('nodeSkipped', { nodeId: 'b', reason: 'The run was stopped.' }),
      ev('runFinish', { status: 'cancelled', usage, durationMs: 4 }),
    ])
    expect(view.nodes['a']?.status).toBe('stopped')
    expect(view.nodes['a']?.consoleLines.map((l) => l.kind)).toEqual(['output', 'info'])
    expect(view.run?.failures).toEqual([])
    expect(view.run?.status).toBe('cancelled')
  })

  it('adds guard alerts as their own lines with the exact text, and badges the node until the next run', () => {
    const store = createRunStore()
    const { applyEvents } = store.getState().actions
    const hint = 'hint text'
    const trip =
      '[Agent Deadlock Protection] Tripped: 3 consecutive identical calls to "search". Terminating loop to prevent token waste.'
    applyEvents([
      ev('runStart', { flowId: 'f', nodeIds: ['agent'] }),
      ev('nodeStart', { nodeId: 'agent', inputs: {} }),
      ev('guard', { nodeId: 'agent', layer: 'loop', level: 'hint', detector: 'repeat', message: hint }),
    ])
    expect(store.getState().nodes['agent']?.badge).toBe('Repeated tool call')
    applyEvents([
      ev('guard', {
        nodeId: 'agent',
        layer: 'loop',
        level: 'trip',
        detector: 'repeat',
        count: 3,
        message: trip,
      }),
      ev('guard', { nodeId: 'agent', layer: 'budget', level: 'hint', message: 'later hint' }),
    ])
    const agent = store.getState().nodes['agent']
    expect(agent?.consoleLines).toEqual([
      { kind: 'guard', text: hint, layer: 'loop', level: 'hint' },
      { kind: 'guard', text: trip, layer: 'loop', level: 'trip' },
      { kind: 'guard', text: 'later hint', layer: 'budget', level: 'hint' },
    ])
    // A hint after a trip does not hide the trip.
    expect(agent?.badge).toBe('Deadlock breaker tripped')
    expect(agent?.alert).toEqual({ layer: 'loop', level: 'trip', detector: 'repeat' })

    // The next run clears the badge and the text; the box stays for the text to come.
    applyEvents([ev('runStart', { flowId: 'f', nodeIds: ['agent'] })])
    expect(store.getState().nodes['agent']).toEqual({ status: 'queued', consoleLines: [], consoleKept: true })
  })

  it('uses the badge labeller it is given (the app passes a translated one)', () => {
    const view = replayRunEvents(
      [
        ev('runStart', { flowId: 'f', nodeIds: ['x'] }),
        ev('guard', { nodeId: 'x', layer: 'budget', level: 'trip', message: 'budget line' }),
      ],
      { badge: (alert) => `${alert.layer}/${alert.level}` },
    )
    expect(view.nodes['x']?.badge).toBe('budget/trip')
  })

  it('keeps the newest CONSOLE_MAX_CHARS characters and says the console was cut', () => {
    const store = createRunStore()
    const { applyEvents } = store.getState().actions
    applyEvents([ev('runStart', { flowId: 'f', nodeIds: ['a'] })])
    const piece = 'y'.repeat(Math.ceil(CONSOLE_MAX_CHARS / 4))
    for (let i = 0; i < 5; i += 1)
      applyEvents([ev('nodeChunk', { nodeId: 'a', text: piece, channel: 'output' })])
    applyEvents([ev('nodeChunk', { nodeId: 'a', text: 'THE END', channel: 'output' })])
    const a = store.getState().nodes['a']
    const text = (a?.consoleLines ?? []).map((l) => l.text).join('')
    expect(text.length).toBe(CONSOLE_MAX_CHARS)
    expect(text.endsWith('THE END')).toBe(true)
    expect(a?.consoleCut).toBe(true)
    expect(a?.consoleChars).toBe(CONSOLE_MAX_CHARS)
    expect(a?.consoleDropped).toBe(5 * piece.length + 'THE END'.length - CONSOLE_MAX_CHARS)
  })

  it('keeps the live run updating behind a past run and restores it', () => {
    const store = createRunStore()
    const { applyEvents, showPast, showLive } = store.getState().actions
    applyEvents([
      ev('runStart', { flowId: 'f', nodeIds: ['a'] }),
      ev('nodeStart', { nodeId: 'a', inputs: {} }),
    ])
    const past = replayRunEvents([
      ev('runStart', { flowId: 'f', nodeIds: ['a'] }),
      ev('nodeChunk', { nodeId: 'a', text: 'old', channel: 'output' }),
    ])
    showPast({ id: 'old', startedAt: 1 }, { ...past.nodes }, past.run)
    applyEvents([ev('nodeChunk', { nodeId: 'a', text: 'new', channel: 'output' })])
    expect(store.getState().nodes['a']?.consoleLines).toEqual([{ kind: 'output', text: 'old' }])
    expect(store.getState().view).toEqual({ mode: 'past', runId: 'old', startedAt: 1 })
    showLive()
    expect(store.getState().nodes['a']?.consoleLines).toEqual([{ kind: 'output', text: 'new' }])
    expect(store.getState().view.mode).toBe('live')
  })

  it('keeps the console box of a rerun node that printed last time until the node ends', () => {
    const store = createRunStore()
    const { applyEvents } = store.getState().actions
    const nodeIds = ['printed', 'silent', 'failing', 'skipped', 'quiet']
    applyEvents([
      ev('runStart', { flowId: 'f', nodeIds }),
      ...['printed', 'failing', 'skipped', 'quiet'].map((nodeId) =>
        ev('nodeChunk', { nodeId, text: 'last run', channel: 'output' }),
      ),
    ])
    applyEvents([ev('runStart', { flowId: 'f', nodeIds })])
    const kept = () => nodeIds.filter((id) => store.getState().nodes[id]?.consoleKept)
    expect(kept()).toEqual(['printed', 'failing', 'skipped', 'quiet'])
    expect(store.getState().nodes['printed']?.consoleLines).toEqual([])

    applyEvents([
      ev('nodeStart', { nodeId: 'printed', inputs: {} }),
      ev('nodeChunk', { nodeId: 'printed', text: 'this run', channel: 'output' }),
    ])
    expect(kept()).toEqual(['printed', 'failing', 'skipped', 'quiet'])
    applyEvents([
      ev('nodeFinish', { nodeId: 'printed', status: 'success', output: {}, durationMs: 1 }),
      ev('nodeError', { nodeId: 'failing', code: 'NODE_FAILED', message: 'broke', durationMs: 1 }),
      ev('nodeSkipped', { nodeId: 'skipped', reason: 'upstream failed' }),
      ev('nodeFinish', { nodeId: 'quiet', status: 'success', output: {}, durationMs: 1 }),
    ])
    expect(kept()).toEqual([])
    // A node that printed nothing this time shows no console; the others show this run's lines.
    expect(store.getState().nodes['quiet']?.consoleLines).toEqual([])
    expect(store.getState().nodes['printed']?.consoleLines).toEqual([{ kind: 'output', text: 'this run' }])
    // A saved run replays from nothing: no box is kept.
    expect(
      replayRunEvents([ev('runStart', { flowId: 'f', nodeIds })]).nodes['printed']?.consoleKept,
    ).toBeUndefined()
  })

  it('drops kept console boxes when a rerun is stopped, or ends without its end events', () => {
    const store = createRunStore()
    const { applyEvents, releaseKeptConsoles } = store.getState().actions
    const printed = (nodeId: string) => ev('nodeChunk', { nodeId, text: 'last run', channel: 'output' })
    applyEvents([
      ev('runStart', { flowId: 'f', nodeIds: ['running', 'queued'] }),
      printed('running'),
      printed('queued'),
    ])
    applyEvents([
      ev('runStart', { flowId: 'f', nodeIds: ['running', 'queued'] }),
      ev('nodeStart', { nodeId: 'running', inputs: {} }),
    ])
    // Stop: the running node is cancelled, the queued one skipped.
    applyEvents([
      ev('nodeError', { nodeId: 'running', code: 'CANCELLED', message: 'Stopped.', durationMs: 1 }),
      ev('nodeSkipped', { nodeId: 'queued', reason: 'The run was stopped.' }),
    ])
    expect(Object.values(store.getState().nodes).some((n) => n.consoleKept)).toBe(false)

    // A run whose engine threw: nodes never got their end events.
    applyEvents([ev('runStart', { flowId: 'f', nodeIds: ['running', 'queued'] })])
    expect(Object.values(store.getState().nodes).filter((n) => n.consoleKept)).toHaveLength(2)
    releaseKeptConsoles()
    expect(Object.values(store.getState().nodes).some((n) => n.consoleKept)).toBe(false)
    // Nothing kept: no store write (node bodies do not render again).
    const before = store.getState().nodes
    releaseKeptConsoles()
    expect(store.getState().nodes).toBe(before)
  })

  it('leaves untouched nodes as the same objects, so their bodies do not re-render', () => {
    const store = createRunStore()
    const { applyEvents } = store.getState().actions
    applyEvents([ev('runStart', { flowId: 'f', nodeIds: ['a', 'b'] })])
    const b = store.getState().nodes['b']
    applyEvents([ev('nodeChunk', { nodeId: 'a', text: 'x', channel: 'output' })])
    expect(store.getState().nodes['b']).toBe(b)
  })
})
