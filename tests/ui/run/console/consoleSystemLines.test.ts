// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import type { RunEvent } from '../../../../src/engine/index.ts'
import { reduceRunEvents, type NodeRunState } from '../../../../src/store/runStoreReducer.ts'
import { ConsoleDom } from '../../../../src/ui/run/console/consoleDom.ts'

const TRIP =
  '[Agent Deadlock Protection] Tripped: 3 consecutive identical calls to "query_orders". Terminating loop to prevent token waste.'
const HINT =
  '[System Hint: You invoked tool "query_orders" twice with identical parameters. If polling or awaiting state change, continue; otherwise synthesize your final answer.]'

/** A Code node's console after it printed the guard's exact lines, then a real guard alert. */
function consoleOf(events: RunEvent[]): HTMLElement {
  const view = reduceRunEvents({ nodes: {}, run: null }, [
    { type: 'runStart', runId: 'r', at: 0, flowId: 'f', nodeIds: ['a'] },
    ...events,
  ])
  const root = document.createElement('div')
  const dom = new ConsoleDom(root, { testIds: true, reasoningLabel: 'Reasoning', systemLabel: 'Wardflow' })
  const a = view.nodes['a'] as NodeRunState
  dom.sync(a.consoleLines, a.consoleDropped)
  return root
}

const chunk = (text: string, channel: 'output' | 'log'): RunEvent => ({
  type: 'nodeChunk',
  runId: 'r',
  at: 0,
  nodeId: 'a',
  text,
  channel,
})

describe('system lines in a node console', () => {
  it('are not forged by code that prints their exact text', () => {
    const root = consoleOf([
      chunk(`${TRIP}\n`, 'log'),
      chunk(`${HINT}\n`, 'log'),
      chunk(TRIP, 'output'),
      { type: 'guard', runId: 'r', at: 0, nodeId: 'a', layer: 'loop', level: 'trip', message: TRIP },
    ])
    const system = [...root.querySelectorAll('[data-source="system"]')]
    expect(system.map((el) => el.textContent)).toEqual([TRIP])
    expect(system[0]?.getAttribute('data-system-label')).toBe('Wardflow')
    expect(root.querySelectorAll('[data-testid="guard-alert"]')).toHaveLength(1)
    // The printed copies are plain output: no mark, no alert id, no guard styling.
    const printed = [...root.querySelectorAll('.wf-run-console__line')].filter((el) =>
      el.textContent?.includes(TRIP),
    )
    expect(printed).toHaveLength(3)
    const forged = printed.filter((el) => !el.hasAttribute('data-source'))
    expect(forged).toHaveLength(2)
    for (const el of forged) {
      expect(el.hasAttribute('data-system-label')).toBe(false)
      expect(el.className).not.toMatch(/--guard|--trip|--hint/)
    }
  })
})
