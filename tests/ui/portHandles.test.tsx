// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import { Canvas } from '../../src/ui/canvas/Canvas.tsx'
import { openFlow, paletteNode, renderEditor } from './harness.tsx'

describe('node ports on the canvas', () => {
  it('draws one labelled source handle per condition case plus else, with the case ids', async () => {
    const cases = [
      { id: 'billing', label: 'Billing', match: 'all', rules: [] },
      { id: 'urgent', match: 'any', rules: [] },
    ]
    openFlow([paletteNode('route', 'condition', { cases }), paletteNode('t', 'template', {}, 400, 0)])
    await renderEditor(
      <div style={{ width: 800, height: 600 }}>
        <Canvas />
      </div>,
    )
    const bodies = await screen.findAllByTestId('flow-node')
    const route = bodies.find((b) => b.getAttribute('data-node-id') === 'route')
    if (!route) throw new Error('no condition body')
    const outputs = within(route)
      .getAllByTestId(/^port-output-/)
      .map((h) => [h.getAttribute('data-handleid'), h.textContent])
    expect(outputs).toEqual([
      ['billing', 'Billing'],
      ['urgent', 'urgent'],
      ['else', 'else'],
    ])
    // A plain node keeps its single unlabelled `out` handle.
    const plain = bodies.find((b) => b.getAttribute('data-node-id') === 't')
    expect(plain?.querySelector('[data-handleid="out"]')).not.toBeNull()
    expect(plain?.querySelector('[data-testid^="port-output-"]')).toBeNull()
  })
})
