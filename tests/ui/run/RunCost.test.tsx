// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ServicesContext, noopFlowsService, type AppServices } from '../../../src/ui/services.ts'
import type { RunEvent } from '../../../src/engine/index.ts'
import { initI18n } from '../../../src/i18n/index.ts'
import { flowStore } from '../../../src/store/flowStore.ts'
import { runStore } from '../../../src/store/runStore.ts'
import { RunPanel } from '../../../src/ui/run/RunPanel.tsx'
import { flow } from '../../support/flowBuilders.ts'

let t = Date.now()
const ev = (type: RunEvent['type'], fields: Record<string, unknown>): RunEvent =>
  ({ type, runId: 'r1', at: (t += 100), ...fields }) as unknown as RunEvent
const used = (total: number, costUsd?: number | null) => ({
  prompt: total - 10,
  completion: 10,
  total,
  estimated: false,
  ...(costUsd === undefined ? {} : { costUsd }),
})

const services: AppServices = {
  flows: noopFlowsService,
  run: { run: () => undefined, stop: () => undefined, showLive: () => undefined },
}

function renderPanel(): void {
  flowStore
    .getState()
    .actions.load(
      flow()
        .meta('flow_c')
        .node('llm_1', 'llm', { prompt: 'a' }, 'Draft')
        .node('llm_2', 'llm', { prompt: 'b' }, 'Review')
        .node('out_1', 'output', { values: {} }, 'Answer')
        .chain('llm_1', 'llm_2', 'out_1')
        .build(),
    )
  render(
    <ServicesContext.Provider value={services}>
      <RunPanel />
    </ServicesContext.Provider>,
  )
}

const apply = (events: RunEvent[]) => act(() => runStore.getState().actions.applyEvents(events))

beforeAll(async () => {
  await initI18n('en')
})

afterEach(() => {
  act(() => runStore.getState().actions.reset())
})

describe('run cost in the run panel (run-cost)', () => {
  it('follows the nodes as they finish, then shows the run total and its unpriced calls', async () => {
    renderPanel()
    apply([ev('runStart', { flowId: 'flow_c', nodeIds: ['llm_1', 'llm_2', 'out_1'] })])
    expect(screen.getByTestId('run-cost').textContent).toBe('0 tokens')

    apply([
      ev('nodeFinish', {
        nodeId: 'llm_1',
        status: 'success',
        output: {},
        durationMs: 1,
        usage: used(1000, 0.0123),
      }),
    ])
    expect(screen.getByTestId('run-cost').textContent).toBe('1,000 tokens · $0.0123')

    // A node inside a loop is already in its loop's usage: it is not added again.
    apply([
      ev('nodeFinish', {
        nodeId: 'llm_2',
        status: 'success',
        output: {},
        durationMs: 1,
        usage: used(500, 1),
        nesting: [{ nodeId: 'llm_1', kind: 'loop', iteration: 0 }],
      }),
      ev('nodeFinish', {
        nodeId: 'llm_2',
        status: 'success',
        output: {},
        durationMs: 1,
        usage: used(234, null),
      }),
    ])
    expect(screen.getByTestId('run-cost').textContent).toBe('1,234 tokens · $0.0123')

    apply([
      ev('runFinish', {
        status: 'success',
        durationMs: 9,
        usage: { ...used(1234, 0.0123), unpricedCalls: 2 },
      }),
    ])
    const cost = screen.getByTestId('run-cost')
    expect(within(cost).getByText('1,234 tokens · $0.0123 + 2 unpriced calls')).toBeTruthy()

    // The breakdown: each node's title, tokens and dollars (or that its price is not known).
    fireEvent.click(within(cost).getByText(/1,234 tokens/))
    const rows = (await within(cost).findAllByRole('row')).map((row) => row.textContent)
    expect(rows).toEqual(['NodeTokensUS dollars', 'Draft1,000$0.0123', 'Review234no price known'])
  })

  it('shows tokens only when no call had a known price, and $0.00 for a free provider', () => {
    renderPanel()
    apply([
      ev('runStart', { flowId: 'flow_c', nodeIds: ['llm_1'] }),
      ev('nodeFinish', {
        nodeId: 'llm_1',
        status: 'success',
        output: {},
        durationMs: 1,
        usage: used(42, null),
      }),
    ])
    expect(screen.getByTestId('run-cost').textContent).toBe('42 tokens')
    apply([
      ev('runStart', { flowId: 'flow_c', nodeIds: ['llm_1'] }),
      ev('nodeFinish', { nodeId: 'llm_1', status: 'success', output: {}, durationMs: 1, usage: used(42, 0) }),
      ev('runFinish', { status: 'success', durationMs: 9, usage: { ...used(42, 0), unpricedCalls: 0 } }),
    ])
    expect(screen.getByTestId('run-cost').querySelector('summary')?.textContent).toBe('42 tokens · $0.00')
  })

  it('puts each saved run cost beside its tokens in the history', async () => {
    renderPanel()
    const now = Date.now()
    act(() =>
      runStore.getState().actions.setHistory('flow_c', [
        {
          id: 'r2',
          flowId: 'flow_c',
          startedAt: now - 1000,
          finishedAt: now,
          status: 'success',
          durationMs: 1000,
          usage: { ...used(1234, 0.5), unpricedCalls: 1 },
        },
        {
          id: 'r1',
          flowId: 'flow_c',
          startedAt: now - 9000,
          finishedAt: now - 8000,
          status: 'success',
          durationMs: 250,
          usage: used(7),
        },
      ]),
    )
    fireEvent.click(screen.getByTestId('run-tab-history'))
    const items = await screen.findAllByTestId('run-history-item')
    expect(items[0]?.textContent).toContain('1,234 tokens · $0.50 + 1 unpriced call')
    expect(items[1]?.textContent).toContain('7 tokens')
    expect(items[1]?.textContent).not.toContain('$')
  })
})
