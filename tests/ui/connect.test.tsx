// @vitest-environment jsdom
/** "Connect to…" (issue 16, item 11): drawing a connection with the keyboard. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, within } from '@testing-library/react'
import { flowStore } from '../../src/store/flowStore.ts'
import { noticeStore } from '../../src/store/noticeStore.ts'
import { uiStore } from '../../src/store/uiStore.ts'
import { EditorKeys } from '../../src/ui/canvas/EditorKeys.tsx'
import { ConnectDialog } from '../../src/ui/connect/ConnectDialog.tsx'
import { connectTargets } from '../../src/ui/connect/connectTargets.ts'
import { openFlow, paletteNode, renderEditor } from './harness.tsx'

const LOOP_REASON =
  'Not connected: this connection would create a loop, and a flow must not loop back on itself.'

function threeNodes(): void {
  openFlow(
    [
      paletteNode('in', 'input'),
      paletteNode('a', 'template'),
      paletteNode('b', 'llm'),
      paletteNode('out', 'output'),
    ],
    [{ id: 'e1', source: 'a', target: 'b', sourceHandle: 'out', targetHandle: 'in' }],
  )
}

const press = (target: Element, key: string): void => {
  act(() => {
    fireEvent.keyDown(target, { key })
  })
}

// jsdom lays nothing out, so it has no scrollIntoView (the list keeps its active row in view).
beforeAll(() => {
  Object.defineProperty(Element.prototype, 'scrollIntoView', { value: () => undefined, configurable: true })
})
afterEach(() => uiStore.getState().setConnectFrom(null))

describe('connect targets', () => {
  it('lists every other node that takes an input, marking a loop and an existing connection', () => {
    threeNodes()
    const { nodes, edges } = flowStore.getState()
    expect(connectTargets('b', nodes, edges).map((t) => [t.nodeId, t.handle, t.refusal])).toEqual([
      ['a', 'in', 'CYCLE'],
      ['out', 'in', null],
    ])
    // Input has no input handle, so it is never a target; the source itself is not either.
    expect(connectTargets('a', nodes, edges).map((t) => [t.nodeId, t.refusal])).toEqual([
      ['b', 'DUPLICATE'],
      ['out', null],
    ])
  })
})

describe('Connect to… dialog', () => {
  it('opens with C on the selected node; arrows and Enter connect with the handles a drag uses', async () => {
    threeNodes()
    flowStore.getState().actions.select(['in'])
    await renderEditor(
      <>
        <EditorKeys />
        <ConnectDialog />
      </>,
    )
    press(document.body, 'c')
    const dialog = await screen.findByTestId('connect-dialog')
    expect(dialog).toHaveAccessibleName('Connect “in” to…')
    const list = within(dialog).getByRole('listbox')
    expect(list).toHaveFocus()
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.getAttribute('data-node-id')),
    ).toEqual(['a', 'b', 'out'])
    press(list, 'ArrowDown')
    press(list, 'ArrowDown')
    press(list, 'ArrowUp')
    expect(list.getAttribute('aria-activedescendant')).toBe(
      within(list).getByRole('option', { selected: true }).id,
    )
    press(list, 'Enter')
    expect(flowStore.getState().edges.find((e) => e.source === 'in')).toMatchObject({
      target: 'b',
      sourceHandle: 'out',
      targetHandle: 'in',
    })
    expect(screen.queryByTestId('connect-dialog')).toBeNull()
    expect(noticeStore.getState().notes.at(-1)).toMatchObject({ key: 'canvas.connected', tone: 'success' })
  })

  it('refuses a loop with the sentence a drag gets and stays open; Esc closes it', async () => {
    threeNodes()
    await renderEditor(<ConnectDialog />)
    act(() => uiStore.getState().setConnectFrom('b'))
    const dialog = await screen.findByTestId('connect-dialog')
    const list = within(dialog).getByRole('listbox')
    press(list, 'Enter')
    expect(within(dialog).getByRole('alert')).toHaveTextContent(LOOP_REASON)
    expect(flowStore.getState().edges).toHaveLength(1)
    press(list, 'Escape')
    expect(screen.queryByTestId('connect-dialog')).toBeNull()
    expect(uiStore.getState().connectFrom).toBeNull()
  })

  it('says why when C finds no single selected node, or the node has no output', async () => {
    threeNodes()
    await renderEditor(
      <>
        <EditorKeys />
        <ConnectDialog />
      </>,
    )
    press(document.body, 'c')
    expect(uiStore.getState().connectFrom).toBeNull()
    expect(noticeStore.getState().notes.at(-1)).toMatchObject({ key: 'connect.needsOne' })

    act(() => flowStore.getState().actions.select(['out']))
    press(document.body, 'c')
    expect(await screen.findByTestId('connect-dialog')).toHaveTextContent(
      '“out” has no output to connect from.',
    )
  })
})
