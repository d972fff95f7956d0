// @vitest-environment jsdom
import { act, render, waitFor } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_DRAW_MIN_INTERVAL_MS } from '../../../src/defaults.ts'
import { initI18n } from '../../../src/i18n/index.ts'
import type { RunEvent } from '../../../src/engine/index.ts'
import {
  runStore,
  useNodeRunFacts,
  type ConsoleLine,
  type NodeRunFacts,
} from '../../../src/store/runStore.ts'
import { ConsoleContent, LiveConsoleContent } from '../../../src/ui/run/console/ConsoleContent.tsx'

const XSS = '<img src=x onerror=alert(1)><script>alert(2)</script><b>bold?</b>'
const TRIP =
  '[Agent Deadlock Protection] Tripped: 3 consecutive identical calls to "search". Terminating loop to prevent token waste.'
const HINT = '[Agent Token Budget Exceeded] Total 1200 tokens reached budget limit of 1000. Terminating loop.'

beforeAll(async () => {
  await initI18n('en')
})

describe('console content', () => {
  it('shows guard alerts as lines with the exact text, their layer and level', () => {
    const lines: ConsoleLine[] = [
      { kind: 'output', text: 'Thinking about it' },
      { kind: 'guard', text: HINT, layer: 'budget', level: 'hint' },
      { kind: 'guard', text: TRIP, layer: 'loop', level: 'trip' },
    ]
    const { getAllByTestId } = render(<ConsoleContent lines={lines} />)
    const alerts = getAllByTestId('guard-alert')
    expect(alerts).toHaveLength(2)
    expect(alerts[0]?.textContent).toBe(HINT)
    expect(alerts[0]).toHaveAttribute('data-layer', 'budget')
    expect(alerts[0]).toHaveAttribute('data-level', 'hint')
    expect(alerts[0]?.className).toContain('wf-run-console__line--hint')
    expect(alerts[1]?.textContent).toBe(TRIP)
    expect(alerts[1]).toHaveAttribute('data-layer', 'loop')
    expect(alerts[1]).toHaveAttribute('data-level', 'trip')
    expect(alerts[1]?.className).toContain('wf-run-console__line--trip')
  })

  it('shows HTML from a model as inert text', () => {
    const lines: ConsoleLine[] = [
      { kind: 'output', text: XSS },
      { kind: 'error', text: XSS },
      { kind: 'reasoning', text: XSS },
    ]
    const { container } = render(<ConsoleContent lines={lines} />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('script')).toBeNull()
    expect(container.querySelector('b')).toBeNull()
    expect(container.textContent).toBe(XSS.repeat(3))
  })

  it('appends streamed text to the same text node instead of re-creating the line', () => {
    let lines: ConsoleLine[] = [{ kind: 'output', text: 'Hel' }]
    const { container, rerender } = render(<ConsoleContent lines={lines} />)
    const first = container.querySelector('.wf-run-console__line--output')?.firstChild
    for (const piece of ['lo', ', ', 'world']) {
      const last = lines[lines.length - 1] as ConsoleLine
      lines = [{ ...last, text: last.text + piece }]
      rerender(<ConsoleContent lines={lines} />)
    }
    const spans = container.querySelectorAll('.wf-run-console__line--output')
    expect(spans).toHaveLength(1)
    expect(spans[0]?.firstChild).toBe(first)
    expect(container.textContent).toBe('Hello, world')

    // A new kind starts a new line; earlier lines stay the same nodes.
    lines = [...lines, { kind: 'log', text: 'log line' }]
    rerender(<ConsoleContent lines={lines} />)
    expect(container.querySelector('.wf-run-console__line--output')?.firstChild).toBe(first)
    expect(container.querySelector('.wf-run-console__line--log')?.textContent).toBe('log line')
  })

  it('rebuilds correctly when the oldest text was cut, and says so', () => {
    const { container, rerender, getByRole } = render(
      <ConsoleContent
        lines={[
          { kind: 'output', text: 'abcdef' },
          { kind: 'log', text: 'L' },
        ]}
      />,
    )
    act(() => {
      rerender(
        <ConsoleContent
          lines={[
            { kind: 'output', text: 'def' },
            { kind: 'log', text: 'L2' },
          ]}
          cut
        />,
      )
    })
    expect(container.querySelector('.wf-run-console')?.textContent).toBe('defL2')
    expect(getByRole('note').textContent).toMatch(
      /Earlier output was cut: the console keeps the last 200,000 characters/,
    )
  })

  it('labels reasoning apart from the answer and leaves test ids out of the inspector copy', () => {
    const lines: ConsoleLine[] = [
      { kind: 'reasoning', text: 'why' },
      { kind: 'output', text: 'answer' },
      { kind: 'guard', text: TRIP, layer: 'loop', level: 'trip' },
    ]
    const { container, queryAllByTestId } = render(<ConsoleContent lines={lines} testIds={false} />)
    const reasoning = container.querySelector('.wf-run-console__line--reasoning')
    expect(reasoning).toHaveAttribute('data-label', 'Reasoning')
    expect(reasoning?.textContent).toBe('why')
    expect(queryAllByTestId('guard-alert')).toHaveLength(0)
    expect(container.querySelector('[data-level="trip"]')?.textContent).toBe(TRIP)
  })
})

describe('live console content', () => {
  const chunk = (text: string): RunEvent => ({
    type: 'nodeChunk',
    runId: 'r',
    nodeId: 'n',
    at: 0,
    text,
    channel: 'output',
  })

  it('draws streamed text from the run store without rendering, and tells its owner after each draw', async () => {
    runStore.getState().actions.reset()
    let renders = 0
    let drawn = 0
    function Probe() {
      renders += 1
      return <LiveConsoleContent nodeId="n" onDrawn={() => (drawn += 1)} />
    }
    const { container } = render(<Probe />)
    const before = drawn
    act(() => runStore.getState().actions.applyEvents([chunk('Hello')]))
    expect(container.textContent).toBe('Hello')
    // A second batch right after the first is drawn in a later frame (CONSOLE_DRAW_MIN_INTERVAL_MS).
    act(() => runStore.getState().actions.applyEvents([chunk(', world')]))
    expect(container.textContent).toBe('Hello')
    await waitFor(() => expect(container.textContent).toBe('Hello, world'))
    expect(renders).toBe(1)
    expect(drawn).toBe(before + 2)
    // Another node's text or the run's phase is not this console's business.
    act(() => runStore.getState().actions.setPhase('running'))
    // Long enough for a wrong draw to have come: the interval and two frames more.
    await new Promise((resolve) => setTimeout(resolve, CONSOLE_DRAW_MIN_INTERVAL_MS + 40))
    expect(drawn).toBe(before + 2)
    act(() => runStore.getState().actions.reset())
    await waitFor(() => expect(container.textContent).toBe(''))
  })

  it('keeps the facts of a node (what its header shows) the same object while text streams', () => {
    runStore.getState().actions.reset()
    const seen: NodeRunFacts[] = []
    function Probe() {
      seen.push(useNodeRunFacts('n'))
      return null
    }
    render(<Probe />)
    act(() => runStore.getState().actions.setStatus('n', 'running'))
    const count = seen.length
    act(() => runStore.getState().actions.applyEvents([chunk('a')]))
    const withConsole = seen.length
    act(() => runStore.getState().actions.applyEvents([chunk('b')]))
    act(() => runStore.getState().actions.applyEvents([chunk('c')]))
    expect(withConsole).toBe(count + 1)
    expect(seen.length).toBe(withConsole)
    expect(seen.at(-1)).toMatchObject({ status: 'running', hasConsole: true })
  })
})
