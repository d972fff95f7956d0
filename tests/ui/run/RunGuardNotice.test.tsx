// @vitest-environment jsdom
/**
 * The whole-run budget's line in the run panel (`run-guard`): the hint, then the trip that
 * replaces it, naming the node whose call crossed the line; a node's own budget never shows there.
 */
import { act, render, screen } from '@testing-library/react'
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
const runGuard = (level: 'hint' | 'trip', total: number, extra: Record<string, unknown> = {}) =>
  ev('guard', {
    nodeId: 'critic',
    layer: 'budget',
    scope: 'run',
    level,
    unit: 'tokens',
    total,
    budget: 9000,
    phase: 'after-call',
    message: `[Run Budget] ${level}`,
    ...extra,
  })

const services: AppServices = {
  flows: noopFlowsService,
  run: { run: () => undefined, stop: () => undefined, showLive: () => undefined },
}

const apply = (events: RunEvent[]) => act(() => runStore.getState().actions.applyEvents(events))

beforeAll(async () => {
  await initI18n('en')
})

afterEach(() => {
  act(() => runStore.getState().actions.reset())
})

describe('the run budget in the run panel (run-guard)', () => {
  it('shows the hint, then the trip naming the node that crossed the line', async () => {
    flowStore
      .getState()
      .actions.load(
        flow()
          .meta('flow_g')
          .node('critic', 'agent', { prompt: 'a' }, 'Critic')
          .node('writer', 'agent', { prompt: 'b' }, 'Writer')
          .chain('critic', 'writer')
          .build(),
      )
    render(
      <ServicesContext.Provider value={services}>
        <RunPanel />
      </ServicesContext.Provider>,
    )
    apply([
      ev('runStart', { flowId: 'flow_g', nodeIds: ['critic', 'writer'] }),
      // An Agent's own budget is its node's business: no run-guard line.
      ev('guard', { nodeId: 'critic', layer: 'budget', level: 'trip', total: 10, budget: 5, message: 'own' }),
    ])
    await screen.findByTestId('run-result')
    expect(screen.queryByTestId('run-guard')).toBeNull()

    apply([runGuard('hint', 8000)])
    const hint = await screen.findByTestId('run-guard')
    expect(hint.getAttribute('data-level')).toBe('hint')
    expect(hint.textContent).toBe('Run budget warning: 8,000 tokens used of 9,000 tokens (at Critic).')

    apply([
      runGuard('trip', 10000),
      ev('nodeError', { nodeId: 'critic', code: 'RUN_BUDGET', message: 'spent', durationMs: 1 }),
      ev('nodeSkipped', { nodeId: 'writer', reason: 'budget', message: 'Not run' }),
      ev('runFinish', {
        status: 'stopped',
        stopReason: 'budget',
        durationMs: 9,
        usage: { prompt: 9000, completion: 1000, total: 10000, estimated: false },
      }),
    ])
    const trip = screen.getByTestId('run-guard')
    expect(trip.getAttribute('data-level')).toBe('trip')
    expect(trip.getAttribute('role')).toBe('alert')
    expect(trip.textContent).toBe(
      'Run budget exceeded at Critic: 10,000 tokens used of 9,000 tokens. The run was stopped.',
    )
  })

  it('words dollars as the panel does, and names the calling node of a sub-flow', async () => {
    flowStore.getState().actions.load(flow().meta('flow_s').node('call', 'subflow', {}, 'Summarise').build())
    render(
      <ServicesContext.Provider value={services}>
        <RunPanel />
      </ServicesContext.Provider>,
    )
    apply([
      ev('runStart', { flowId: 'flow_s', nodeIds: ['call'] }),
      runGuard('trip', 0.021, { unit: 'usd', budget: 0.01, nodeId: 'inner', path: ['call'] }),
    ])
    const trip = await screen.findByTestId('run-guard')
    expect(trip.getAttribute('data-unit')).toBe('usd')
    expect(trip.textContent).toBe(
      'Run budget exceeded at Summarise: $0.021 used of $0.01. The run was stopped.',
    )
  })
})
