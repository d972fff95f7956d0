// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, fireEvent, screen, within } from '@testing-library/react'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { libraryStore } from '../../src/store/libraryStore.ts'
import { watchPreflight } from '../../src/store/preflight.ts'
import { uiStore } from '../../src/store/uiStore.ts'
import { FlowList } from '../../src/ui/flows/FlowList.tsx'
import { ProblemsPanel } from '../../src/ui/problems/ProblemsPanel.tsx'
import { ShortcutSheet } from '../../src/ui/shortcuts/ShortcutSheet.tsx'
import { EditorKeys } from '../../src/ui/canvas/EditorKeys.tsx'
import { Welcome } from '../../src/ui/welcome/Welcome.tsx'
import type { FlowsService } from '../../src/ui/services.ts'
import { openFlow, paletteNode, renderEditor } from './harness.tsx'

let stopPreflight: (() => void) | null = null
afterEach(() => {
  stopPreflight?.()
  stopPreflight = null
})

describe('problems list', () => {
  it('lists preflight problems in words and selects the node when one is clicked', async () => {
    openFlow([
      paletteNode('input_1', 'input'),
      paletteNode('llm_1', 'llm', { prompt: 'Use {{input_1.question}}' }, 300),
    ])
    stopPreflight = watchPreflight(flowStore, engineRegistry)
    uiStore.setState({ problemsOpen: true })
    await renderEditor(<ProblemsPanel />)
    const item = screen
      .getAllByTestId('problem-item')
      .find((el) => el.getAttribute('data-code') === 'REF_NOT_UPSTREAM')
    expect(item).toBeDefined()
    expect(item).toHaveTextContent('{{input_1.question}} reads “input_1”, which is not upstream')
    fireEvent.click(item as HTMLElement)
    expect([...flowStore.getState().selectedNodeIds]).toEqual(['llm_1'])
  })

  it('says so when there is nothing to fix', async () => {
    openFlow([paletteNode('note_1', 'note')])
    stopPreflight = watchPreflight(flowStore, engineRegistry)
    await renderEditor(<ProblemsPanel />)
    expect(screen.getByTestId('problems-panel')).toHaveTextContent('No problems')
  })
})

describe('flow list', () => {
  const flows = [
    { id: 'f1', name: 'Research agent', updatedAt: '2026-01-02T10:00:00.000Z', nodeCount: 4 },
    { id: 'f2', name: 'Daily digest', updatedAt: '2026-01-01T10:00:00.000Z', nodeCount: 1 },
  ]
  const service = () => {
    const s = {
      flush: vi.fn(async () => {}),
      create: vi.fn(async () => {}),
      open: vi.fn(async () => {}),
      rename: vi.fn(async () => {}),
      duplicate: vi.fn(async () => {}),
      remove: vi.fn(async () => {}),
    }
    return s satisfies FlowsService
  }

  it('searches, opens, renames, duplicates, and deletes only after confirming', async () => {
    libraryStore.getState().setFlows(flows)
    openFlow([], [], 'f1')
    const s = service()
    await renderEditor(<FlowList />, { flows: s })
    const list = screen.getByTestId('flow-list')
    expect(within(list).getAllByTestId('flow-list-item')).toHaveLength(2)
    fireEvent.change(screen.getByPlaceholderText('Search flows'), { target: { value: 'digest' } })
    expect(await within(list).findAllByTestId('flow-list-item')).toHaveLength(1)
    fireEvent.click(within(list).getByText('Daily digest'))
    expect(s.open).toHaveBeenCalledWith('f2')

    fireEvent.click(screen.getByRole('button', { name: 'Rename Daily digest' }))
    const input = screen.getByLabelText('New name')
    fireEvent.change(input, { target: { value: 'Weekly digest' } })
    fireEvent.keyDown(input, { key: 'Enter' })
    expect(s.rename).toHaveBeenCalledWith('f2', 'Weekly digest')

    fireEvent.click(screen.getByRole('button', { name: 'Duplicate Daily digest' }))
    expect(s.duplicate).toHaveBeenCalledWith('f2')

    fireEvent.click(screen.getByRole('button', { name: 'Delete Daily digest' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete this flow?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(s.remove).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Delete Daily digest' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByTestId('confirm-delete-flow-button'))
    expect(s.remove).toHaveBeenCalledWith('f2')

    fireEvent.click(screen.getByTestId('new-flow'))
    expect(s.create).toHaveBeenCalled()
  })

  it('marks the open flow', async () => {
    libraryStore.getState().setFlows(flows)
    openFlow([], [], 'f2')
    await renderEditor(<FlowList />)
    const current = screen.getAllByTestId('flow-list-item').find((el) => el.hasAttribute('data-current'))
    expect(current).toHaveAttribute('data-flow-id', 'f2')
  })
})

describe('welcome and shortcut sheet', () => {
  it('offers the template gallery and the loop breaker when they exist', async () => {
    const gallery = vi.fn()
    const loop = vi.fn()
    await renderEditor(<Welcome onOpenTemplates={gallery} onOpenLoopBreaker={loop} />)
    expect(screen.getByTestId('welcome')).toHaveTextContent('Drag a node from the palette')
    fireEvent.click(screen.getByRole('button', { name: 'Browse templates' }))
    fireEvent.click(screen.getByRole('button', { name: 'See the loop breaker' }))
    expect(gallery).toHaveBeenCalled()
    expect(loop).toHaveBeenCalled()
  })

  it('opens the shortcut sheet with ? and closes it with Escape', async () => {
    openFlow([])
    await renderEditor(
      <>
        <ShortcutSheet />
        <EditorKeys />
      </>,
    )
    expect(screen.queryByRole('dialog')).toBeNull()
    act(() => {
      fireEvent.keyDown(document.body, { key: '?' })
    })
    const sheet = screen.getByRole('dialog', { name: 'Keyboard shortcuts' })
    expect(sheet).toHaveTextContent('Undo')
    expect(sheet).toHaveTextContent('Duplicate selection')
    fireEvent.keyDown(sheet, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
