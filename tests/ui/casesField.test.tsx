// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { fireEvent, screen, within } from '@testing-library/react'
import { flowStore } from '../../src/store/flowStore.ts'
import { runStore } from '../../src/store/runStore.ts'
import { Inspector } from '../../src/ui/inspector/Inspector.tsx'
import { openFlow, paletteNode, renderEditor } from './harness.tsx'

function cases(): Array<Record<string, unknown>> {
  const config = flowStore.getState().nodes.find((n) => n.id === 'route')?.data.config ?? {}
  return config['cases'] as Array<Record<string, unknown>>
}

async function inspectRoute() {
  runStore.getState().actions.reset()
  openFlow(
    [
      paletteNode('ask', 'input', { values: { answer: 'y' } }),
      paletteNode('route', 'condition'),
      paletteNode('t', 'template'),
    ],
    [
      { id: 'e1', source: 'ask', target: 'route' },
      { id: 'e2', source: 'route', target: 't', sourceHandle: 'case_1' },
    ],
  )
  flowStore.getState().actions.select(['route'])
  await renderEditor(<Inspector />)
  const panel = await screen.findByTestId('node-inspector')
  await within(panel).findAllByTestId('condition-case')
  return panel
}

describe('condition cases editor', () => {
  it('edits a rule with the upstream field picker and hides "compare with" for isEmpty', async () => {
    const panel = await inspectRoute()
    const rule = within(panel).getByTestId('condition-rule')
    const pick = within(rule).getByRole('combobox', { name: /insert an upstream field$/ })
    expect(within(pick).getByRole('option', { name: '{{ask.answer}}' })).toBeTruthy()
    fireEvent.change(pick, { target: { value: '{{ask.answer}}' } })
    expect((cases()[0]?.['rules'] as Array<Record<string, unknown>>)[0]?.['value']).toBe('{{ask.answer}}')
    expect(within(rule).getByRole('textbox', { name: /: compare with$/ })).toBeTruthy()
    fireEvent.change(within(rule).getByRole('combobox', { name: /: comparison$/ }), {
      target: { value: 'isEmpty' },
    })
    expect(within(rule).queryByRole('textbox', { name: /: compare with$/ })).toBeNull()
    expect(screen.getByTestId('condition-preview')).toHaveTextContent('No run yet')
  })

  it('refuses an id that cannot be a handle in place, and renaming moves the case edge', async () => {
    const panel = await inspectRoute()
    const id = within(panel).getByLabelText('Id (output handle)') as HTMLInputElement
    fireEvent.change(id, { target: { value: 'else' } })
    expect(within(panel).getByRole('alert')).toHaveTextContent('“else” is the output when no case holds')
    expect(cases()[0]?.['id']).toBe('case_1')
    fireEvent.change(id, { target: { value: 'yes' } })
    expect(cases()[0]?.['id']).toBe('yes')
    expect(flowStore.getState().edges.find((e) => e.id === 'e2')?.sourceHandle).toBe('yes')
  })

  it('adds, reorders and removes cases; removing one drops its edge', async () => {
    const panel = await inspectRoute()
    fireEvent.click(within(panel).getByRole('button', { name: 'Add case' }))
    expect(cases().map((c) => c['id'])).toEqual(['case_1', 'case_2'])
    fireEvent.click(within(panel).getByRole('button', { name: 'Move case “case_2” up' }))
    expect(cases().map((c) => c['id'])).toEqual(['case_2', 'case_1'])
    fireEvent.click(within(panel).getByRole('button', { name: 'Remove case “case_1”' }))
    expect(cases().map((c) => c['id'])).toEqual(['case_2'])
    expect(flowStore.getState().edges.map((e) => e.id)).toEqual(['e1'])
  })
})
