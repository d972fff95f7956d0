// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { act, fireEvent, screen } from '@testing-library/react'
import { PASTE_OFFSET_PX } from '../../src/defaults.ts'
import { CLIPBOARD_FORMAT } from '../../src/store/clipboard.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { noticeStore } from '../../src/store/noticeStore.ts'
import { EditorKeys } from '../../src/ui/canvas/EditorKeys.tsx'
import { openFlow, paletteNode, renderEditor } from './harness.tsx'

/** A system clipboard shared by the events below, like the real one across tabs. */
function clipboard() {
  const data = new Map<string, string>()
  const fire = (type: 'copy' | 'cut' | 'paste', target: EventTarget = document.body): Event => {
    const event = new Event(type, { bubbles: true, cancelable: true })
    Object.defineProperty(event, 'clipboardData', {
      value: { setData: (t: string, v: string) => data.set(t, v), getData: (t: string) => data.get(t) ?? '' },
    })
    act(() => {
      target.dispatchEvent(event)
    })
    return event
  }
  return { data, fire }
}

const source = () => [
  paletteNode('input_1', 'input', { values: { q: 'why' } }, 0, 0),
  paletteNode('llm_1', 'llm', { prompt: 'Answer {{input_1.q}}' }, 300, 0),
  paletteNode('output_1', 'output', {}, 600, 0),
]
const sourceEdges = [
  { id: 'e1', source: 'input_1', target: 'llm_1' },
  { id: 'e2', source: 'llm_1', target: 'output_1' },
]

describe('system clipboard', () => {
  it('copies the selected nodes as Wardflow JSON text and pastes them into another flow', async () => {
    const board = clipboard()
    openFlow(source(), sourceEdges, 'flow-a')
    await renderEditor(<EditorKeys />)
    act(() => flowStore.getState().actions.select(['input_1', 'llm_1']))
    const copy = board.fire('copy')
    expect(copy.defaultPrevented).toBe(true)
    const payload = JSON.parse(board.data.get('text/plain') ?? '{}') as {
      format: string
      nodes: unknown[]
      edges: unknown[]
    }
    expect(payload.format).toBe(CLIPBOARD_FORMAT)
    expect(payload.nodes).toHaveLength(2)
    expect(payload.edges).toHaveLength(1)

    // Another flow (as in another tab) that already has an input_1.
    act(() => openFlow([paletteNode('input_1', 'input', {}, 50, 50)], [], 'flow-b'))
    board.fire('paste')
    const s = flowStore.getState()
    expect(s.nodes.map((n) => n.id)).toEqual(['input_1', 'input_2', 'llm_1'])
    expect(s.edges.map((e) => `${e.source}->${e.target}`)).toEqual(['input_2->llm_1'])
    expect(s.nodes.find((n) => n.id === 'llm_1')?.data.config['prompt']).toBe('Answer {{input_2.q}}')
    expect(s.nodes.find((n) => n.id === 'input_2')?.position).toEqual({
      x: PASTE_OFFSET_PX,
      y: PASTE_OFFSET_PX,
    })
    expect([...s.selectedNodeIds]).toEqual(['input_2', 'llm_1'])
    // Pasting again moves the next copies one step further instead of stacking them.
    board.fire('paste')
    expect(flowStore.getState().nodes.find((n) => n.id === 'input_3')?.position).toEqual({
      x: 2 * PASTE_OFFSET_PX,
      y: 2 * PASTE_OFFSET_PX,
    })
  })

  it('cut removes the copied nodes in one undo step', async () => {
    const board = clipboard()
    openFlow(source(), sourceEdges)
    await renderEditor(<EditorKeys />)
    act(() => flowStore.getState().actions.select(['output_1']))
    board.fire('cut')
    expect(flowStore.getState().nodes.map((n) => n.id)).toEqual(['input_1', 'llm_1'])
    expect(board.data.get('text/plain')).toContain('output_1')
    act(() => flowStore.getState().actions.undo())
    expect(flowStore.getState().nodes.map((n) => n.id)).toEqual(['input_1', 'llm_1', 'output_1'])
  })

  it('leaves copy and paste inside text fields alone', async () => {
    const board = clipboard()
    openFlow(source(), sourceEdges)
    await renderEditor(
      <>
        <input aria-label="notes" />
        <EditorKeys />
      </>,
    )
    act(() => flowStore.getState().actions.select(['llm_1']))
    const field = screen.getByLabelText('notes')
    expect(board.fire('copy', field).defaultPrevented).toBe(false)
    expect(board.data.size).toBe(0)
    board.data.set(
      'text/plain',
      JSON.stringify({ format: CLIPBOARD_FORMAT, version: 1, nodes: [source()[0]], edges: [] }),
    )
    expect(board.fire('paste', field).defaultPrevented).toBe(false)
    expect(flowStore.getState().nodes).toHaveLength(3)
  })

  it('adds nothing for clipboard text that is neither nodes nor a file, and says so', async () => {
    const board = clipboard()
    openFlow(source(), sourceEdges)
    await renderEditor(<EditorKeys />)
    board.data.set('text/plain', 'just some words')
    expect(board.fire('paste').defaultPrevented).toBe(true)
    expect(flowStore.getState().nodes).toHaveLength(3)
    expect(noticeStore.getState().notes.at(-1)?.key).toBe('canvas.pasteNothing')
    fireEvent.keyDown(document.body, { key: 'a', ctrlKey: true })
    expect(flowStore.getState().selectedNodeIds.size).toBe(3)
  })

  it('imports pasted workflow file text the way a dropped file is imported', async () => {
    const board = clipboard()
    openFlow(source(), sourceEdges)
    const files: File[] = []
    await renderEditor(<EditorKeys />, { import: { importFile: async (file) => void files.push(file) } })
    const workflow = JSON.stringify({ format: 'wardflow.workflow', nodes: [], edges: [] })
    board.data.set('text/plain', `  ${workflow}\n`)
    expect(board.fire('paste').defaultPrevented).toBe(true)
    expect(files).toHaveLength(1)
    expect(await files[0]?.text()).toBe(`  ${workflow}\n`)
    expect(flowStore.getState().nodes).toHaveLength(3)
  })
})
