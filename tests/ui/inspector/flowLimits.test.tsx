// @vitest-environment jsdom
/**
 * "Run budget for this flow" in the inspector with nothing selected: typed limits go to the
 * flow's metadata.limits through the flow store (one undo step per typing burst), empty clears,
 * out of range is shown and not written, and undo brings the field back with the store.
 */
import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { flowStore } from '../../../src/store/flowStore.ts'
import { Inspector } from '../../../src/ui/inspector/Inspector.tsx'
import { openFlow, paletteNode, renderEditor } from '../harness.tsx'

const limits = () => flowStore.getState().metadata?.limits
const type = (id: string, value: string): void =>
  void fireEvent.change(screen.getByTestId(id), { target: { value } })

async function showFlowSettings() {
  openFlow([paletteNode('llm_1', 'llm')])
  await renderEditor(<Inspector />)
  return screen.findByTestId('flow-limits')
}

describe('inspector: run budget for this flow', () => {
  it('shows both limits empty with labels, and writes typed values to metadata.limits', async () => {
    const group = await showFlowSettings()
    expect(group).toHaveTextContent('Run budget for this flow')
    expect(screen.getByLabelText('Max tokens per run')).toHaveValue(null)
    expect(screen.getByLabelText('Max US dollars per run')).toHaveValue(null)
    type('flow-limit-tokens', '120')
    type('flow-limit-usd', '0.05')
    expect(limits()).toEqual({ maxRunTokens: 120, maxRunCostUsd: 0.05 })
    type('flow-limit-usd', '')
    expect(limits()).toEqual({ maxRunTokens: 120 })
    type('flow-limit-tokens', '')
    expect(flowStore.getState().metadata).not.toHaveProperty('limits')
  })

  it('refuses a fraction of a token or a negative amount inline and keeps the stored limit', async () => {
    await showFlowSettings()
    type('flow-limit-tokens', '50')
    type('flow-limit-tokens', '50.5')
    expect(screen.getByTestId('flow-limit-tokens')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a whole number.')
    type('flow-limit-usd', '-2')
    expect(limits()).toEqual({ maxRunTokens: 50 })
  })

  it('text the number field cannot parse ("1e" half typed) keeps the stored limit and says so', async () => {
    await showFlowSettings()
    type('flow-limit-tokens', '500')
    const field = screen.getByTestId('flow-limit-tokens') as HTMLInputElement
    // jsdom does not parse number fields: the browser's report of unparsable text, by hand.
    Object.defineProperty(field, 'validity', { value: { badInput: true }, configurable: true })
    fireEvent.change(field, { target: { value: '' } })
    expect(limits()).toEqual({ maxRunTokens: 500 })
    expect(field).toHaveAttribute('aria-invalid', 'true')
  })

  it('undo takes a typing burst back in one step and the field follows', async () => {
    await showFlowSettings()
    for (const text of ['1', '10', '100']) type('flow-limit-tokens', text)
    expect(limits()).toEqual({ maxRunTokens: 100 })
    act(() => flowStore.getState().actions.undo())
    expect(limits()).toBeUndefined()
    expect(screen.getByTestId('flow-limit-tokens')).toHaveValue(null)
    act(() => flowStore.getState().actions.redo())
    expect(screen.getByTestId('flow-limit-tokens')).toHaveValue(100)
  })

  it('a past run shown (read-only) cannot be edited', async () => {
    await showFlowSettings()
    act(() => flowStore.getState().actions.setReadOnly(true))
    expect(screen.getByTestId('flow-limit-tokens')).toBeDisabled()
    act(() => flowStore.getState().actions.setReadOnly(false))
  })
})
