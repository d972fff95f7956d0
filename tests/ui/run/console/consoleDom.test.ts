// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import {
  CONSOLE_BLOCK_HARD_CHARS,
  CONSOLE_BLOCK_SOFT_CHARS,
  CONSOLE_MAX_CHARS,
  CONSOLE_UNSETTLED_CLOSED_BLOCKS,
} from '../../../../src/defaults.ts'
import type { RunEvent } from '../../../../src/engine/index.ts'
import { grownLine } from '../../../../src/store/consoleText.ts'
import {
  reduceRunEvents,
  type ConsoleLine,
  type NodeRunState,
} from '../../../../src/store/runStoreReducer.ts'
import { ConsoleDom } from '../../../../src/ui/run/console/consoleDom.ts'

function setup() {
  const root = document.createElement('div')
  const dom = new ConsoleDom(root, { testIds: true, reasoningLabel: 'Reasoning' })
  return { root, dom }
}

const blocks = (root: HTMLElement) =>
  [...root.querySelectorAll('.wf-run-console__block')].map((b) => b.textContent ?? '')

/** Streams `pieces` into node `a` through the real reducer, syncing the DOM after each one. */
function stream(pieces: string[], dom: ConsoleDom): NodeRunState {
  let view = reduceRunEvents({ nodes: {}, run: null }, [
    { type: 'runStart', runId: 'r', at: 0, flowId: 'f', nodeIds: ['a'] },
  ])
  for (const text of pieces) {
    const event: RunEvent = { type: 'nodeChunk', runId: 'r', at: 0, nodeId: 'a', text, channel: 'output' }
    view = reduceRunEvents(view, [event])
    const a = view.nodes['a'] as NodeRunState
    dom.sync(a.consoleLines, a.consoleDropped)
  }
  return view.nodes['a'] as NodeRunState
}

describe('console DOM', () => {
  it('lays long text out in small blocks that end right after a newline, text unchanged', () => {
    const { root, dom } = setup()
    const paragraph = `${'word '.repeat(100)}\n`
    const pieces = Array.from({ length: 40 }, () => paragraph)
    stream(pieces, dom)
    expect(root.textContent).toBe(pieces.join(''))
    const all = blocks(root)
    expect(all.length).toBeGreaterThan(3)
    for (const block of all.slice(0, -1)) {
      expect(block.endsWith('\n')).toBe(true)
      expect(block.length).toBeGreaterThanOrEqual(CONSOLE_BLOCK_SOFT_CHARS)
      expect(block.length).toBeLessThan(CONSOLE_BLOCK_SOFT_CHARS + paragraph.length + 1)
    }
  })

  it('cuts text without newlines at a space before the hard limit', () => {
    const { root, dom } = setup()
    const pieces = Array.from({ length: 30 }, (_, i) => `token${i} `.repeat(200))
    stream(pieces, dom)
    expect(root.textContent).toBe(pieces.join(''))
    const all = blocks(root)
    for (const block of all) expect(block.length).toBeLessThanOrEqual(CONSOLE_BLOCK_HARD_CHARS)
    for (const block of all.slice(0, -1)) expect(block.endsWith(' ')).toBe(true)
  })

  it('appends to the last block only: earlier blocks stay the same nodes', () => {
    const { root, dom } = setup()
    stream([`${'a'.repeat(CONSOLE_BLOCK_SOFT_CHARS)}\nnext`], dom)
    const first = root.querySelector('.wf-run-console__block')
    const lines: ConsoleLine[] = [
      { kind: 'output', text: `${'a'.repeat(CONSOLE_BLOCK_SOFT_CHARS)}\nnext more` },
    ]
    dom.sync(lines, 0)
    expect(root.querySelector('.wf-run-console__block')).toBe(first)
    expect(blocks(root)).toEqual([`${'a'.repeat(CONSOLE_BLOCK_SOFT_CHARS)}\n`, 'next more'])
  })

  it('trims from the front exactly what the store cut, keeping the DOM equal to the store', () => {
    const { root, dom } = setup()
    const piece = `${'x'.repeat(999)}\n`
    const pieces = Array.from({ length: Math.ceil((CONSOLE_MAX_CHARS * 1.5) / piece.length) }, (_, i) =>
      i % 7 === 3 ? `[${i}]${piece}` : piece,
    )
    const state = stream(pieces, dom)
    expect(state.consoleCut).toBe(true)
    const expected = state.consoleLines.map((l) => l.text).join('')
    expect(expected.length).toBe(CONSOLE_MAX_CHARS)
    expect(root.textContent).toBe(expected)
  })

  it('keeps guard alerts whole with their exact text, and rebuilds for another run', () => {
    const { root, dom } = setup()
    const trip = '[Agent Max Iterations Reached] Synthesizing final answer...'
    dom.sync(
      [
        { kind: 'output', text: 'partial' },
        { kind: 'guard', text: trip, layer: 'iterations', level: 'trip' },
      ],
      0,
    )
    const alert = root.querySelector('[data-testid="guard-alert"]')
    expect(alert?.textContent).toBe(trip)
    expect(alert?.getAttribute('data-layer')).toBe('iterations')
    // Another run (or a saved one) with different text: rebuilt, not appended.
    dom.sync([{ kind: 'output', text: 'other' }], 0)
    expect(root.textContent).toBe('other')
    expect(root.querySelector('[data-testid="guard-alert"]')).toBeNull()
    dom.sync([], 0)
    expect(root.textContent).toBe('')
  })

  it('rebuilds for another run whose longer text differs at the start or at the end of what is shown', () => {
    const { root, dom } = setup()
    const shown = `${'a'.repeat(500)}\n${'b'.repeat(500)}`
    dom.sync([{ kind: 'output', text: shown }], 0)
    const otherStart = `c${shown.slice(1)} and more`
    dom.sync([{ kind: 'output', text: otherStart }], 0)
    expect(root.textContent).toBe(otherStart)
    const otherEnd = `${otherStart.slice(0, -1)}!${'d'.repeat(100)}`
    dom.sync([{ kind: 'output', text: otherEnd }], 0)
    expect(root.textContent).toBe(otherEnd)
    const shorter = otherEnd.slice(0, 10)
    dom.sync([{ kind: 'output', text: shorter }], 0)
    expect(root.textContent).toBe(shorter)
  })

  it('takes the new text of a streamed line from its pieces, without reading the whole text', () => {
    const { root, dom } = setup()
    const state = stream(['first ', 'second '], dom)
    const shown = state.consoleLines[0] as ConsoleLine
    const next = grownLine(shown, 'third')
    // Reading `text` of a string built by appending would copy the whole reply (consoleText.ts).
    Object.defineProperty(next, 'text', {
      get: () => {
        throw new Error('the console read the whole text')
      },
    })
    dom.sync([next], 0)
    expect(root.textContent).toBe('first second third')
  })

  it('settles blocks a few behind the newest over all lines, streamed or drawn at once', () => {
    const paragraph = `${'word '.repeat(100)}\n`
    const settled = (root: HTMLElement) =>
      [...root.querySelectorAll('.wf-run-console__block')].map((b) => b.hasAttribute('data-settled'))
    const expectSettled = (flags: boolean[]) => {
      expect(flags.length).toBeGreaterThan(CONSOLE_UNSETTLED_CLOSED_BLOCKS + 3)
      const newest = CONSOLE_UNSETTLED_CLOSED_BLOCKS + 1
      expect(flags.slice(0, -newest).every(Boolean)).toBe(true)
      expect(flags.slice(-newest).some(Boolean)).toBe(false)
    }
    const streamed = setup()
    stream(
      Array.from({ length: 60 }, () => paragraph),
      streamed.dom,
    )
    expectSettled(settled(streamed.root))
    const atOnce = setup()
    atOnce.dom.sync([{ kind: 'output', text: paragraph.repeat(60) }], 0)
    expectSettled(settled(atOnce.root))
    // An agent's console: many lines of one or two blocks each. Blocks settle across lines.
    const agent = setup()
    const lines: ConsoleLine[] = Array.from({ length: 12 }, (_, i) => ({
      kind: i % 2 ? 'output' : 'reasoning',
      text: paragraph.repeat(i % 3 === 0 ? 5 : 1),
    }))
    agent.dom.sync(lines, 0)
    expectSettled(settled(agent.root))
  })

  it('keeps the fast path over the cap: the front is trimmed by count, the end from the pieces', () => {
    const { root, dom } = setup()
    const piece = `${'y'.repeat(499)}\n`
    const count = Math.ceil((CONSOLE_MAX_CHARS * 1.2) / piece.length)
    const state = stream(
      Array.from({ length: count }, () => piece),
      dom,
    )
    expect(state.consoleCut).toBe(true)
    const next = reduceRunEvents({ nodes: { a: state }, run: null }, [
      { type: 'nodeChunk', runId: 'r', at: 0, nodeId: 'a', text: 'tail', channel: 'output' },
    ]).nodes['a'] as NodeRunState
    const line = next.consoleLines[0] as ConsoleLine
    const expected = line.text
    Object.defineProperty(line, 'text', {
      get: () => {
        throw new Error('the console read the whole text')
      },
    })
    dom.sync(next.consoleLines, next.consoleDropped)
    expect(root.textContent).toBe(expected)
    expect(expected.length).toBe(CONSOLE_MAX_CHARS)
  })

  it('draws the same lines into two consoles that sync at different paces, and a rerun after', () => {
    const one = setup()
    const two = setup()
    let view = reduceRunEvents({ nodes: {}, run: null }, [
      { type: 'runStart', runId: 'r', at: 0, flowId: 'f', nodeIds: ['a'] },
    ])
    for (let i = 0; i < 200; i += 1) {
      const channel = i % 50 < 10 ? 'reasoning' : 'output'
      view = reduceRunEvents(view, [
        { type: 'nodeChunk', runId: 'r', at: 0, nodeId: 'a', text: `${i} `.repeat(30), channel },
      ])
      const a = view.nodes['a'] as NodeRunState
      one.dom.sync(a.consoleLines, a.consoleDropped)
      if (i % 7 === 0) two.dom.sync(a.consoleLines, a.consoleDropped)
    }
    const a = view.nodes['a'] as NodeRunState
    two.dom.sync(a.consoleLines, a.consoleDropped)
    const whole = a.consoleLines.map((l) => l.text).join('')
    expect(one.root.textContent).toBe(whole)
    expect(two.root.textContent).toBe(whole)
    // A rerun clears the console and streams anew: nothing of the last run stays.
    view = reduceRunEvents(view, [
      { type: 'runStart', runId: 'r2', at: 1, flowId: 'f', nodeIds: ['a'] },
      { type: 'nodeStart', runId: 'r2', at: 1, nodeId: 'a', inputs: {} },
      { type: 'nodeChunk', runId: 'r2', at: 1, nodeId: 'a', text: 'again', channel: 'output' },
    ])
    const again = view.nodes['a'] as NodeRunState
    one.dom.sync(again.consoleLines, again.consoleDropped)
    expect(one.root.textContent).toBe('again')
  })
})
