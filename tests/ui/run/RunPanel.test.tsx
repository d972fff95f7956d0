// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ServicesContext, noopFlowsService, type AppServices } from '../../../src/ui/services.ts'
import type { RunEvent } from '../../../src/engine/index.ts'
import { initI18n } from '../../../src/i18n/index.ts'
import { flowStore } from '../../../src/store/flowStore.ts'
import { runStore } from '../../../src/store/runStore.ts'
import { replayRunEvents } from '../../../src/store/runStoreReducer.ts'
import { NodeRunDetails } from '../../../src/ui/run/NodeRunDetails.tsx'
import { RunPanel } from '../../../src/ui/run/RunPanel.tsx'
import { flow } from '../../support/flowBuilders.ts'

const usage = { prompt: 10, completion: 1224, total: 1234, estimated: true }
let t = Date.now()
const ev = (type: RunEvent['type'], fields: Record<string, unknown>): RunEvent =>
  ({ type, runId: 'r1', at: (t += 100), ...fields }) as unknown as RunEvent

function openFlow(): void {
  flowStore.getState().actions.load(
    flow()
      .meta('flow_p')
      .node('in_1', 'input', { values: { q: 'x' } }, 'Question')
      .node('llm_1', 'llm', { prompt: '{{in_1.q}}' }, 'Ask the model')
      .node('out_1', 'output', { values: { answer: '{{llm_1.response}}' } }, 'Answer')
      .chain('in_1', 'llm_1', 'out_1')
      .build(),
  )
}

function services(calls: string[]): AppServices {
  return {
    flows: noopFlowsService,
    run: {
      run: () => calls.push('run'),
      stop: () => calls.push('stop'),
      openRun: async (id) => {
        calls.push(`open:${id}`)
      },
      showLive: () => calls.push('live'),
    },
  }
}

beforeAll(async () => {
  await initI18n('en')
})

afterEach(() => {
  act(() => {
    runStore.getState().actions.reset()
    runStore.getState().actions.setHistory(null, [])
    runStore.getState().actions.setPhase('idle')
  })
})

describe('run panel', () => {
  it('shows status, progress, tokens with the estimated marker, failures and the result', async () => {
    openFlow()
    const calls: string[] = []
    render(
      <ServicesContext.Provider value={services(calls)}>
        <RunPanel />
      </ServicesContext.Provider>,
    )
    expect(screen.getByTestId('run-status')).toHaveAttribute('data-status', 'idle')
    act(() => {
      runStore.getState().actions.setPhase('running')
      runStore
        .getState()
        .actions.applyEvents([
          ev('runStart', { flowId: 'flow_p', nodeIds: ['in_1', 'llm_1', 'out_1'] }),
          ev('nodeStart', { nodeId: 'in_1', inputs: {} }),
          ev('nodeFinish', { nodeId: 'in_1', status: 'success', output: { q: 'x' }, durationMs: 1 }),
        ])
    })
    expect(screen.getByTestId('run-status')).toHaveAttribute('data-status', 'running')
    expect(screen.getByTestId('run-progress').textContent).toBe('1 of 3 nodes')
    act(() => {
      runStore.getState().actions.applyEvents([
        ev('nodeStart', { nodeId: 'llm_1', inputs: { in_1: { q: 'x' } } }),
        ev('nodeError', {
          nodeId: 'llm_1',
          code: 'PROVIDER_AUTH',
          message: 'The key was refused.',
          durationMs: 5,
        }),
        ev('nodeSkipped', { nodeId: 'out_1', reason: 'Skipped because "Ask the model" failed.' }),
        ev('runFinish', { status: 'error', usage, durationMs: 1500 }),
      ])
    })
    expect(screen.getByTestId('run-status')).toHaveAttribute('data-status', 'error')
    expect(screen.getByTestId('run-progress').textContent).toBe('3 of 3 nodes')
    expect(screen.getByTestId('run-tokens').textContent).toBe('1,234 tokens (estimated)')
    expect(screen.getByTestId('run-duration').textContent).toBe('1.5 s')
    // The result is a chunk of its own (lazy): it appears once loaded.
    const summary = await screen.findByTestId('run-error-summary')
    expect(summary.textContent).toContain('1 node failed')
    expect(summary.textContent).toContain('Ask the model: The key was refused.')
    fireEvent.click(within(summary).getByRole('button', { name: 'Ask the model' }))
    expect([...flowStore.getState().selectedNodeIds]).toEqual(['llm_1'])
  })

  it('shows the result of the Output nodes, as text or sanitised Markdown', async () => {
    openFlow()
    render(
      <ServicesContext.Provider value={services([])}>
        <RunPanel />
      </ServicesContext.Provider>,
    )
    act(() => {
      runStore.getState().actions.applyEvents([
        ev('runStart', { flowId: 'flow_p', nodeIds: ['out_1'] }),
        ev('nodeFinish', {
          nodeId: 'out_1',
          status: 'success',
          output: { answer: '**hi** <img src=x onerror=alert(1)>' },
          durationMs: 1,
        }),
        ev('runFinish', { status: 'success', usage, durationMs: 10 }),
      ])
    })
    const result = await screen.findByTestId('run-result')
    expect(result.querySelector('.wf-run-output__text')?.textContent).toBe(
      '**hi** <img src=x onerror=alert(1)>',
    )
    expect(result.querySelector('img')).toBeNull()
  })

  it('lists saved runs and opens one; the past-run bar leads back to live', async () => {
    openFlow()
    const calls: string[] = []
    render(
      <ServicesContext.Provider value={services(calls)}>
        <RunPanel />
      </ServicesContext.Provider>,
    )
    const now = Date.now()
    act(() => {
      runStore.getState().actions.setHistory('flow_p', [
        {
          id: 'r2',
          flowId: 'flow_p',
          startedAt: now - 1000,
          finishedAt: now,
          status: 'stopped',
          durationMs: 1000,
          usage,
        },
        {
          id: 'r1',
          flowId: 'flow_p',
          startedAt: now - 9000,
          finishedAt: now - 8000,
          status: 'success',
          durationMs: 250,
          usage: { ...usage, estimated: false, total: 7 },
        },
      ])
    })
    fireEvent.click(screen.getByTestId('run-tab-history'))
    const items = await screen.findAllByTestId('run-history-item')
    expect(items.map((i) => i.getAttribute('data-run-id'))).toEqual(['r2', 'r1'])
    expect(items[0]?.textContent).toContain('Stopped')
    expect(items[1]?.textContent).toContain('250 ms')
    expect(items[1]?.textContent).toContain('7 tokens')
    fireEvent.click(within(items[1] as HTMLElement).getByTestId('run-history-open'))
    expect(calls).toEqual(['open:r1'])

    const past = replayRunEvents([ev('runStart', { flowId: 'flow_p', nodeIds: ['out_1'] })])
    act(() =>
      runStore.getState().actions.showPast({ id: 'r1', startedAt: now - 9000 }, { ...past.nodes }, past.run),
    )
    expect(screen.getByTestId('run-past-view').textContent).toContain('read-only')
    expect(screen.getAllByTestId('run-history-item')[1]).toHaveAttribute('aria-current', 'true')
    fireEvent.click(screen.getByTestId('run-back-to-live'))
    expect(calls).toEqual(['open:r1', 'live'])
  })
})

describe('node run details', () => {
  it('shows inputs, output, usage, timing and the console of the selected node', () => {
    openFlow()
    const { container } = render(<NodeRunDetails nodeId="llm_1" />)
    expect(screen.getByTestId('node-run-details')).toHaveAttribute('data-status', 'idle')
    act(() => {
      runStore.getState().actions.applyEvents([
        ev('runStart', { flowId: 'flow_p', nodeIds: ['llm_1'] }),
        ev('nodeStart', { nodeId: 'llm_1', inputs: { in_1: { q: 'x' } } }),
        ev('nodeChunk', { nodeId: 'llm_1', channel: 'reasoning', text: 'hmm' }),
        ev('nodeChunk', { nodeId: 'llm_1', channel: 'output', text: 'Answer <b>x</b>' }),
        ev('nodeFinish', {
          nodeId: 'llm_1',
          status: 'success',
          output: { response: 'Answer <b>x</b>' },
          durationMs: 2300,
          usage,
        }),
      ])
    })
    const details = screen.getByTestId('node-run-details')
    expect(details).toHaveAttribute('data-status', 'success')
    expect(details.textContent).toContain('2.3 s')
    expect(details.textContent).toContain('10 prompt + 1,224 completion = 1,234')
    expect(details.textContent).toContain('(estimated)')
    expect(details.textContent).toContain('"q": "x"')
    expect(container.querySelector('b')).toBeNull()
    const copy = screen.getByTestId('inspector-console')
    expect(copy.textContent).toBe('hmmAnswer <b>x</b>')
    expect(within(copy).queryAllByTestId('guard-alert')).toHaveLength(0)
  })
})

describe('run summary while the canvas changes', () => {
  it('does not re-render when a node moves (a drag rewrites the nodes array every frame)', async () => {
    const { Profiler } = await import('react')
    const { RunSummaryView } = await import('../../../src/ui/run/RunSummaryView.tsx')
    openFlow()
    act(() => {
      runStore
        .getState()
        .actions.applyEvents([
          ev('runStart', { flowId: 'flow_p', nodeIds: ['in_1', 'llm_1', 'out_1'] }),
          ev('nodeError', { nodeId: 'llm_1', code: 'PROVIDER_AUTH', message: 'Refused.', durationMs: 5 }),
          ev('runFinish', { status: 'error', usage, durationMs: 10 }),
        ])
    })
    let renders = 0
    render(
      <Profiler id="summary" onRender={() => (renders += 1)}>
        <RunSummaryView />
      </Profiler>,
    )
    expect(screen.getByTestId('run-error-summary').textContent).toContain('Ask the model')
    const before = renders
    for (let x = 1; x <= 5; x += 1) {
      act(() => flowStore.getState().actions.setPositions(new Map([['in_1', { x: x * 10, y: 0 }]])))
    }
    expect(renders).toBe(before)
    act(() => flowStore.getState().actions.setLabel('llm_1', 'Ask again'))
    expect(screen.getByTestId('run-error-summary').textContent).toContain('Ask again')
  })
})
