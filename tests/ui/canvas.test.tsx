// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { act, fireEvent, screen, within } from '@testing-library/react'
import { NODE_HEIGHT_PX, NODE_WIDTH_PX, SNAP_GRID_PX } from '../../src/defaults.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { runStore } from '../../src/store/runStore.ts'
import { uiStore } from '../../src/store/uiStore.ts'
import { Canvas, connectOrExplain } from '../../src/ui/canvas/Canvas.tsx'
import { PALETTE_MIME } from '../../src/ui/canvas/dnd.ts'
import { EditorKeys } from '../../src/ui/canvas/EditorKeys.tsx'
import { StatusNotes } from '../../src/ui/kit/StatusNotes.tsx'
import { Palette } from '../../src/ui/palette/Palette.tsx'
import { Toolbar } from '../../src/ui/toolbar/Toolbar.tsx'
import { openFlow, paletteNode, renderEditor } from './harness.tsx'

function Editor() {
  return (
    <>
      <Toolbar />
      <Palette />
      <div style={{ width: 800, height: 600 }}>
        <Canvas />
      </div>
      <StatusNotes />
      <EditorKeys />
    </>
  )
}

const ids = (): string[] => flowStore.getState().nodes.map((n) => n.id)
const key = (k: string, init: KeyboardEventInit = {}): void => {
  act(() => {
    fireEvent.keyDown(document.body, { key: k, ...init })
  })
}

describe('canvas editor', () => {
  it('adds each palette type by click, each drawn with its contract attributes', async () => {
    openFlow([])
    await renderEditor(<Editor />)
    for (const type of ['input', 'template', 'llm', 'agent', 'code', 'http', 'output']) {
      fireEvent.click(screen.getByTestId(`palette-item-${type}`))
    }
    const bodies = await screen.findAllByTestId('flow-node')
    expect(bodies.map((b) => b.getAttribute('data-node-type'))).toEqual([
      'input',
      'template',
      'llm',
      'agent',
      'code',
      'http',
      'output',
    ])
    expect(bodies.map((b) => b.getAttribute('data-node-id'))).toEqual(ids())
    expect(bodies.every((b) => b.getAttribute('data-status') === 'idle')).toBe(true)
    // Repeated clicks fan out instead of stacking on one spot.
    const spots = new Set(flowStore.getState().nodes.map((n) => `${n.position.x},${n.position.y}`))
    expect(spots.size).toBe(7)
  })

  it('drops a dragged palette type centred under the pointer', async () => {
    openFlow([])
    uiStore.setState({ snapToGrid: true })
    await renderEditor(<Editor />)
    const pane = document.querySelector('.wf-canvas') as HTMLElement
    // jsdom has no DragEvent: a mouse event carries the pointer, dataTransfer is attached.
    const drop = new MouseEvent('drop', { bubbles: true, cancelable: true, clientX: 400, clientY: 300 })
    Object.defineProperty(drop, 'dataTransfer', {
      value: { types: [PALETTE_MIME], getData: (t: string) => (t === PALETTE_MIME ? 'llm' : ''), files: [] },
    })
    act(() => {
      pane.dispatchEvent(drop)
    })
    const node = flowStore.getState().nodes[0]
    expect(node?.type).toBe('llm')
    const snap = (v: number) => Math.round(v / SNAP_GRID_PX) * SNAP_GRID_PX
    expect(node?.position).toEqual({ x: snap(400 - NODE_WIDTH_PX / 2), y: snap(300 - NODE_HEIGHT_PX / 2) })
  })

  it('deletes the selection with Delete, and undoes/redoes it from the keyboard and the toolbar', async () => {
    openFlow(
      [paletteNode('a', 'template'), paletteNode('b', 'template', {}, 300)],
      [{ id: 'e', source: 'a', target: 'b' }],
    )
    await renderEditor(<Editor />)
    const undo = screen.getByTestId('undo')
    const redo = screen.getByTestId('redo')
    expect(undo).toBeDisabled()
    act(() => flowStore.getState().actions.select(['a']))
    key('Delete')
    expect(ids()).toEqual(['b'])
    expect(flowStore.getState().edges).toEqual([])
    expect(undo).toBeEnabled()
    key('z', { ctrlKey: true })
    expect(ids()).toEqual(['a', 'b'])
    expect(redo).toBeEnabled()
    key('z', { ctrlKey: true, shiftKey: true })
    expect(ids()).toEqual(['b'])
    fireEvent.click(undo)
    expect(ids()).toEqual(['a', 'b'])
    key('y', { ctrlKey: true })
    expect(ids()).toEqual(['b'])
    fireEvent.click(undo)
    act(() => flowStore.getState().actions.select(['a']))
    key('Backspace')
    expect(ids()).toEqual(['b'])
  })

  it('leaves Delete and Backspace to text fields', async () => {
    openFlow([paletteNode('a', 'template')])
    await renderEditor(
      <>
        <input aria-label="name" />
        <Editor />
      </>,
    )
    act(() => flowStore.getState().actions.select(['a']))
    fireEvent.keyDown(screen.getByLabelText('name'), { key: 'Backspace' })
    fireEvent.keyDown(screen.getByLabelText('name'), { key: 'Delete' })
    expect(ids()).toEqual(['a'])
  })

  it('duplicates with Ctrl+D and the toolbar button', async () => {
    openFlow([paletteNode('code_1', 'code')])
    await renderEditor(<Editor />)
    act(() => flowStore.getState().actions.select(['code_1']))
    key('d', { ctrlKey: true })
    expect(ids()).toEqual(['code_1', 'code_2'])
    expect([...flowStore.getState().selectedNodeIds]).toEqual(['code_2'])
    fireEvent.click(screen.getByTestId('duplicate-selection'))
    expect(ids()).toEqual(['code_1', 'code_2', 'code_3'])
  })

  it('refuses a loop or a self-loop with a visible reason', async () => {
    openFlow(
      [paletteNode('a', 'template'), paletteNode('b', 'template', {}, 300)],
      [{ id: 'e', source: 'a', target: 'b' }],
    )
    await renderEditor(<Editor />)
    act(() => {
      expect(connectOrExplain({ source: 'b', target: 'a', sourceHandle: 'out', targetHandle: 'in' })).toBe(
        false,
      )
    })
    expect(screen.getByTestId('status-notes')).toHaveTextContent('would create a loop')
    act(() => {
      expect(connectOrExplain({ source: 'a', target: 'a', sourceHandle: 'out', targetHandle: 'in' })).toBe(
        false,
      )
    })
    expect(screen.getByTestId('status-notes')).toHaveTextContent('cannot feed itself')
    expect(flowStore.getState().edges).toHaveLength(1)
  })

  it('shows console text as text, and guard alerts with their layer and level', async () => {
    openFlow([paletteNode('agent_1', 'agent')])
    await renderEditor(<Editor />)
    act(() => {
      const { actions } = runStore.getState()
      actions.setStatus('agent_1', 'running')
      actions.appendText('agent_1', 'output', '<img src=x onerror="window.__pwned=1"> thinking')
      actions.appendLine('agent_1', {
        kind: 'guard',
        text: 'Loop detected: lookup repeated 3 times',
        layer: 'loop',
        level: 'trip',
      })
    })
    const body = screen.getAllByTestId('flow-node')[0] as HTMLElement
    expect(body).toHaveAttribute('data-status', 'running')
    const consoleEl = await within(body).findByTestId('node-console')
    expect(consoleEl).toHaveTextContent('<img src=x onerror="window.__pwned=1"> thinking')
    expect(consoleEl.querySelector('img')).toBeNull()
    const alert = within(consoleEl).getByTestId('guard-alert')
    expect(alert).toHaveAttribute('data-layer', 'loop')
    expect(alert).toHaveAttribute('data-level', 'trip')
    expect(alert).toHaveTextContent('Loop detected: lookup repeated 3 times')
  })

  it('renames a node by double-clicking its title', async () => {
    openFlow([paletteNode('llm_1', 'llm')])
    await renderEditor(<Editor />)
    const body = screen.getAllByTestId('flow-node')[0] as HTMLElement
    fireEvent.doubleClick(within(body).getByText('llm_1', { selector: '.wf-node__title' }))
    const input = await within(body).findByLabelText('Double-click to rename')
    fireEvent.change(input, { target: { value: 'Writer' } })
    fireEvent.keyDown(input, { key: 'Enter' })
    expect(flowStore.getState().nodes[0]?.data.label).toBe('Writer')
  })
})
