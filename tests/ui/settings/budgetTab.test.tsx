// @vitest-environment jsdom
/**
 * The Budget tab: the default run limits (empty = no limit, checked against their ranges) and
 * the price overrides (add, edit, remove), saved together and read back from storage.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { loadSettings, saveSettings } from '../../../src/storage/index.ts'
import { defaultSettings } from '../../../src/settings/schema.ts'
import { settingsStore } from '../../../src/store/settingsStore.ts'
import { resetStores } from '../../app/settingsSupport.ts'
import { freshDb } from '../../storage/support.ts'
import { renderSettings, useLanguage } from './support.tsx'

beforeEach(async () => {
  resetStores()
  await useLanguage('en')
})

const type = (el: HTMLElement, value: string): void => void fireEvent.change(el, { target: { value } })
const save = (): void => void fireEvent.click(screen.getByTestId('budget-save'))
const rows = (): HTMLElement[] => screen.queryAllByTestId('price-override-row')
const inRow = (row: HTMLElement, id: string): HTMLInputElement => within(row).getByTestId(id)

describe('settings: Budget tab', () => {
  it('is a tab of its own; both limits start empty (no limit) and there are no price overrides', async () => {
    await renderSettings('budget')
    expect(screen.getByRole('tab', { name: 'Budget' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByLabelText('Tokens per run')).toHaveValue(null)
    expect(screen.getByTestId('settings-run-limit-usd')).toHaveValue(null)
    expect(rows()).toHaveLength(0)
    expect(screen.getByText(/No price overrides/)).toBeInTheDocument()
  })

  it('saves typed limits (dollars with cents) and clears one left empty', async () => {
    const { db } = await renderSettings('budget')
    type(screen.getByTestId('settings-run-limit-tokens'), '2500')
    type(screen.getByTestId('settings-run-limit-usd'), '0.75')
    save()
    await waitFor(() => expect(screen.getByTestId('budget-status')).toHaveTextContent('Saved.'))
    expect((await loadSettings(db)).settings.runLimits).toEqual({ maxRunTokens: 2500, maxRunCostUsd: 0.75 })
    type(screen.getByTestId('settings-run-limit-usd'), '')
    save()
    await waitFor(() => expect(settingsStore.getState().settings.runLimits).toEqual({ maxRunTokens: 2500 }))
  })

  it('refuses a limit out of range or a fraction of a token inline, and saves nothing', async () => {
    const { db } = await renderSettings('budget')
    const tokens = screen.getByTestId('settings-run-limit-tokens')
    type(tokens, '1.5')
    type(screen.getByTestId('settings-run-limit-usd'), '-1')
    save()
    await waitFor(() => expect(tokens).toHaveAttribute('aria-invalid', 'true'))
    expect(within(tokens.parentElement as HTMLElement).getByRole('alert')).toHaveTextContent(
      'Enter a whole number.',
    )
    expect(screen.getByTestId('budget-status')).toHaveTextContent('2 values are outside their range')
    expect((await loadSettings(db)).settings.runLimits).toEqual({})
  })

  it('adds, edits and removes price overrides; a half-filled row is refused', async () => {
    const { db } = await renderSettings('budget')
    fireEvent.click(screen.getByTestId('price-override-add'))
    fireEvent.click(screen.getByTestId('price-override-add'))
    expect(rows()).toHaveLength(2)
    const [first, second] = rows() as [HTMLElement, HTMLElement]
    expect(inRow(first, 'price-override-provider').value).toBe('*')
    type(inRow(first, 'price-override-model'), 'house-model')
    type(inRow(first, 'price-override-input'), '1.5')
    type(inRow(first, 'price-override-output'), '6')
    type(inRow(second, 'price-override-provider'), 'demo')
    type(inRow(second, 'price-override-model'), 'demo')
    save()
    await waitFor(() => expect(screen.getByTestId('budget-status')).toHaveTextContent('outside'))
    expect((await loadSettings(db)).settings.priceOverrides).toEqual([])
    type(inRow(second, 'price-override-input'), '0.5')
    type(inRow(second, 'price-override-output'), '2')
    type(inRow(second, 'price-override-cached'), '0.05')
    save()
    await waitFor(() => expect(screen.getByTestId('budget-status')).toHaveTextContent('Saved.'))
    expect((await loadSettings(db)).settings.priceOverrides).toEqual([
      { provider: '*', model: 'house-model', inputUsdPerMTok: 1.5, outputUsdPerMTok: 6 },
      {
        provider: 'demo',
        model: 'demo',
        inputUsdPerMTok: 0.5,
        outputUsdPerMTok: 2,
        cachedInputUsdPerMTok: 0.05,
      },
    ])
    fireEvent.click(within(first).getByTestId('price-override-remove'))
    expect(rows()).toHaveLength(1)
    save()
    await waitFor(async () =>
      expect((await loadSettings(db)).settings.priceOverrides.map((o) => o.model)).toEqual(['demo']),
    )
  })

  it('refuses a second row for the same provider and model (only the first would count)', async () => {
    await renderSettings('budget')
    for (let i = 0; i < 2; i++) fireEvent.click(screen.getByTestId('price-override-add'))
    for (const row of rows()) {
      type(inRow(row, 'price-override-model'), 'm')
      type(inRow(row, 'price-override-input'), '1')
      type(inRow(row, 'price-override-output'), '1')
    }
    save()
    const second = rows()[1] as HTMLElement
    await waitFor(() => expect(inRow(second, 'price-override-model')).toHaveAttribute('aria-invalid', 'true'))
    expect(within(second).getByText(/already have a price/)).toBeInTheDocument()
  })

  it('shows stored limits and overrides, in Chinese too', async () => {
    const db = await freshDb()
    await saveSettings(db, {
      ...defaultSettings(),
      runLimits: { maxRunTokens: 900 },
      priceOverrides: [{ provider: '*', model: 'x', inputUsdPerMTok: 1, outputUsdPerMTok: 2 }],
    })
    await useLanguage('zh-CN')
    await renderSettings('budget', db, 'zh-CN')
    expect(screen.getByRole('tab', { name: '预算' })).toBeInTheDocument()
    expect(screen.getByTestId('settings-run-limit-tokens')).toHaveValue(900)
    expect(inRow(rows()[0] as HTMLElement, 'price-override-model').value).toBe('x')
    expect(screen.getByText('价格覆盖')).toBeInTheDocument()
  })
})
