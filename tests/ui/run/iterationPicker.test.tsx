// @vitest-environment jsdom
/**
 * The loop's iteration picker: "Iteration 3 of 3", previous / next by click and arrow keys, each
 * body node's output or error of the picked iteration, and the body's consoles turned to it.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runFlow } from '../../../src/engine/run.ts'
import { initI18n } from '../../../src/i18n/index.ts'
import { engineRegistry } from '../../../src/nodes/registry.ts'
import { flowStore } from '../../../src/store/flowStore.ts'
import { runStore } from '../../../src/store/runStore.ts'
import { RunConsole } from '../../../src/ui/run/console/RunConsole.tsx'
import { NodeRunDetails } from '../../../src/ui/run/NodeRunDetails.tsx'
import { collect, flow, testContext } from '../../support/flowBuilders.ts'

function loopFlow() {
  const doc = flow()
    .meta('flow_loop')
    .node(
      'each',
      'loop',
      { items: '["apple", "pear", "fig"]', onItemError: 'continue', resultNode: 'b' },
      'Each',
    )
    .node('a', 'template', { template: '{{each.item}}' }, 'Name')
    .node('b', 'output', { values: { line: '#{{each.index}} {{a.text}}' } }, 'Line')
    .edge('a', 'b')
    .build()
  for (const n of doc.nodes) if (n.id !== 'each') n.parentId = 'each'
  return doc
}

beforeAll(async () => {
  await initI18n('en')
})

afterEach(() => {
  act(() => runStore.getState().actions.reset())
})

describe('loop iteration picker', () => {
  it('steps through iterations and shows each body node of the picked one; consoles follow', async () => {
    const doc = loopFlow()
    flowStore.getState().actions.load(doc)
    const events = await collect(runFlow(doc, engineRegistry, testContext().ctx))
    act(() => runStore.getState().actions.applyEvents(events))

    render(<NodeRunDetails nodeId="each" />)
    const picker = screen.getByTestId('loop-iterations')
    expect(picker.getAttribute('data-count')).toBe('3')
    expect(screen.getByTestId('loop-iteration-index').textContent).toBe('Iteration 3 of 3')
    const row = (id: string) =>
      within(screen.getByTestId('loop-iteration'))
        .getAllByTestId('loop-iteration-node')
        .find((el) => el.getAttribute('data-node-id') === id)!
    expect(within(row('b')).getByTestId('loop-iteration-output').textContent).toContain('#2 fig')
    expect(screen.getByTestId('loop-iteration-next').getAttribute('aria-disabled')).toBe('true')

    fireEvent.click(screen.getByTestId('loop-iteration-prev'))
    expect(screen.getByTestId('loop-iteration-index').textContent).toBe('Iteration 2 of 3')
    expect(within(row('a')).getByTestId('loop-iteration-output').textContent).toContain('pear')
    expect(within(row('b')).getByTestId('loop-iteration-output').textContent).toContain('#1 pear')
    // Its inputs in that iteration: what `a` gave it.
    expect(within(row('b')).getByTestId('loop-iteration-inputs').textContent).toContain('pear')
    expect(runStore.getState().iterationPicks['each']).toBe('1')

    // The body node's console shows that iteration only.
    render(
      <RunConsole nodeId="b" state={{ status: 'success', consoleLines: [], hasConsole: true } as never} />,
    )
    const console = screen
      .getAllByTestId('inspector-console')
      .find((el) => el.getAttribute('data-node-id') === 'b')!
    expect(console.getAttribute('data-iteration')).toBe('1')
    expect(console.textContent).toContain('#1 pear')
    expect(console.textContent).not.toContain('fig')

    // Arrow keys on the picker move too; Home goes to the first.
    const nav = screen.getByRole('group', { name: 'Iterations' })
    fireEvent.keyDown(nav, { key: 'Home' })
    expect(screen.getByTestId('loop-iteration-index').textContent).toBe('Iteration 1 of 3')
    expect(console.textContent).toContain('#0 apple')
    fireEvent.keyDown(nav, { key: 'ArrowRight' })
    expect(screen.getByTestId('loop-iteration-index').textContent).toBe('Iteration 2 of 3')

    // A new run follows the latest again.
    act(() => runStore.getState().actions.applyEvents(events))
    expect(runStore.getState().iterationPicks).toEqual({})
    expect(screen.getByTestId('loop-iteration-index').textContent).toBe('Iteration 3 of 3')
    expect(console.getAttribute('data-iteration')).toBeNull()
  })

  it('says how many earlier iterations were not kept', () => {
    flowStore.getState().actions.load(loopFlow())
    act(() =>
      runStore.getState().actions.batch((draft) => {
        draft['each'] = { status: 'success', consoleLines: [] }
        draft['b'] = {
          status: 'success',
          consoleLines: [],
          iterations: [
            {
              iteration: 250,
              loops: [{ nodeId: 'each', kind: 'loop', iteration: 250 }],
              chain: [250],
              key: '250',
              status: 'success',
            },
          ],
          iterationsNotKept: 250,
        }
      }),
    )
    render(<NodeRunDetails nodeId="each" />)
    expect(screen.getByTestId('loop-iteration-index').textContent).toBe('Iteration 251 of 251')
    expect(screen.getByTestId('loop-iterations-not-kept').textContent).toBe('250 earlier iterations not kept')
  })
})
