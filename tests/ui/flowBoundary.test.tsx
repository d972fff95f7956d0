// @vitest-environment jsdom
/**
 * A flow that breaks its view must not break the app: the boundary around the canvas (and the
 * inspector) shows what failed, offers to export the flow or start a new one, and gives the view
 * back when another flow opens.
 */
import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useShallow } from 'zustand/react/shallow'
import { noopFlowsService } from '../../src/ui/services.ts'
import { useFlowStore } from '../../src/store/flowStore.ts'
import { FlowBoundary } from '../../src/ui/kit/FlowBoundary.tsx'
import { openFlow, paletteNode, renderEditor } from './harness.tsx'

/** Stands in for any view that throws on some flow's data (what the boundary must contain). */
function FragileView() {
  const ids = useFlowStore(useShallow((s) => s.nodes.map((n) => n.id)))
  if (ids.includes('boom')) throw new Error('Cannot read properties of undefined (reading "length")')
  return <p>{`canvas with ${ids.length} nodes`}</p>
}

afterEach(() => vi.restoreAllMocks())

describe('the flow error boundary', () => {
  it('shows what failed, exports the broken flow or starts a new one, and recovers on another flow', async () => {
    // React reports caught render errors on the console; the boundary adds a warning.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const exportWorkflow = vi.fn()
    const create = vi.fn(async () => {})
    openFlow([paletteNode('boom', 'input')], [], 'broken-flow')
    await renderEditor(
      <div>
        <nav>flow list</nav>
        <FlowBoundary part="canvas">
          <FragileView />
        </FlowBoundary>
      </div>,
      { export: { exportWorkflow }, flows: { ...noopFlowsService, create } },
    )

    const broken = screen.getByTestId('flow-broken')
    expect(broken).toHaveAttribute('role', 'alert')
    expect(broken).toHaveTextContent('This flow could not be shown')
    expect(screen.getByTestId('flow-broken-error')).toHaveTextContent('reading "length"')
    // The rest of the page is still there.
    expect(screen.getByText('flow list')).toBeInTheDocument()
    expect(warn).toHaveBeenCalled()

    fireEvent.click(screen.getByTestId('flow-broken-export'))
    expect(exportWorkflow).toHaveBeenCalledTimes(1)
    fireEvent.click(screen.getByTestId('flow-broken-new'))
    expect(create).toHaveBeenCalledTimes(1)

    // Trying again with the same flow fails the same way, and says so again.
    fireEvent.click(screen.getByTestId('flow-broken-retry'))
    expect(screen.getByTestId('flow-broken')).toBeInTheDocument()

    // Another flow opens: the view is back.
    act(() => openFlow([paletteNode('fine', 'input'), paletteNode('also', 'output')], [], 'good-flow'))
    expect(screen.queryByTestId('flow-broken')).toBeNull()
    expect(screen.getByText('canvas with 2 nodes')).toBeInTheDocument()
  })
})
