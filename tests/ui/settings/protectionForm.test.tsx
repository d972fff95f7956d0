// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { loadSettings } from '../../../src/storage/index.ts'
import { settingsStore } from '../../../src/store/settingsStore.ts'
import { resetStores } from '../../app/settingsSupport.ts'
import { renderSettings, useLanguage } from './support.tsx'

beforeEach(async () => {
  resetStores()
  await useLanguage('en')
})

function field(label: string): HTMLInputElement {
  return screen.getByLabelText(label)
}

function set(label: string, value: string): void {
  fireEvent.change(field(label), { target: { value } })
}

const save = (): void => void fireEvent.click(screen.getByTestId('protection-save'))

describe('runtime protection form', () => {
  it('shows every setting with a visible label and the stored values (timeouts in seconds)', async () => {
    await renderSettings('protection')
    expect(field('Trip threshold').value).toBe('3')
    expect(field('Max iterations').value).toBe('10')
    expect(field('Default token budget').value).toBe('0')
    expect(field('Sandbox timeout').value).toBe('5')
    expect(field('Tool timeout').value).toBe('30')
    expect(screen.getByRole('switch', { name: 'Loop detection' })).toBeChecked()
    expect(screen.getByRole('switch', { name: 'Progress-aware' })).toBeChecked()
    expect(screen.getByRole('switch', { name: 'Cycle detection' })).toBeChecked()
    expect(screen.getByText(/Allowed: 2–10$/)).toBeInTheDocument()
    expect(screen.getByText(/Allowed: 1–60 s$/)).toBeInTheDocument()
  })

  it('refuses an out-of-range threshold inline, never clamps it, and saves nothing', async () => {
    const { db } = await renderSettings('protection')
    const before = settingsStore.getState().settings
    set('Trip threshold', '11')
    save()
    const threshold = field('Trip threshold')
    await waitFor(() => expect(threshold).toHaveAttribute('aria-invalid', 'true'))
    expect(threshold.value).toBe('11')
    const message = within(threshold.parentElement as HTMLElement).getByRole('alert')
    expect(message).toHaveTextContent('Too high: the largest allowed value is 10')
    expect(screen.getByTestId('protection-status')).toHaveTextContent(
      '1 value is outside its range; nothing was saved.',
    )
    expect(settingsStore.getState().settings).toBe(before)
    expect((await loadSettings(db)).settings.runtimeProtection.loopDetectionThreshold).toBe(3)
  })

  it('refuses each kind of bad number with its own reason', async () => {
    await renderSettings('protection')
    set('Trip threshold', '1')
    set('Max iterations', '51')
    set('Sandbox timeout', '2.5')
    set('Tool timeout', '4')
    set('Default token budget', '')
    save()
    const reason = (label: string) =>
      within(field(label).parentElement as HTMLElement).getByRole('alert').textContent
    await waitFor(() => expect(reason('Trip threshold')).toMatch(/Too low: the smallest allowed value is 2/))
    expect(reason('Max iterations')).toMatch(/largest allowed value is 50/)
    expect(reason('Sandbox timeout')).toMatch(/whole number/)
    expect(reason('Tool timeout')).toMatch(/smallest allowed value is 5 s/)
    expect(reason('Default token budget')).toMatch(/Enter a number/)
    expect(screen.getByTestId('protection-status')).toHaveTextContent('5 values are outside their ranges')
  })

  it('saves values at the edges of their ranges, converting seconds to milliseconds, and applies them', async () => {
    const { db } = await renderSettings('protection')
    set('Trip threshold', '10')
    set('Max iterations', '1')
    set('Default token budget', '20000')
    set('Sandbox timeout', '60')
    set('Tool timeout', '300')
    set('Model call deadline', '86400')
    set('Tool approval timeout', '10')
    set('Largest filled-in field (characters)', '50000000')
    fireEvent.click(screen.getByRole('switch', { name: 'Cycle detection' }))
    fireEvent.click(screen.getByRole('switch', { name: 'Repetitive text guard' }))
    save()
    await waitFor(() => expect(screen.getByTestId('protection-status')).toHaveTextContent('Saved.'))
    const expected = {
      loopDetectionEnabled: true,
      loopDetectionThreshold: 10,
      progressAware: true,
      cycleDetection: false,
      textLoopDetection: false,
      maxIterations: 1,
      maxTokenBudget: 20000,
      sandboxTimeoutMs: 60000,
      toolTimeoutMs: 300000,
      modelCallDeadlineMs: 86_400_000,
      approvalTimeoutMs: 10_000,
      templateMaxChars: 50_000_000,
    }
    expect(settingsStore.getState().settings.runtimeProtection).toEqual(expected)
    expect((await loadSettings(db)).settings.runtimeProtection).toEqual(expected)
  })

  it('restore defaults fills the form with the built-in values without saving', async () => {
    await renderSettings('protection')
    set('Max iterations', '42')
    fireEvent.click(screen.getByRole('button', { name: 'Restore defaults' }))
    expect(field('Max iterations').value).toBe('10')
  })
})

describe('general settings', () => {
  it('refuses an autosave delay outside its range and applies the theme at once', async () => {
    const { db } = await renderSettings('general')
    fireEvent.change(screen.getByLabelText('Theme'), { target: { value: 'dark' } })
    await waitFor(() => expect(settingsStore.getState().settings.theme).toBe('dark'))
    set('Autosave delay', '50')
    fireEvent.click(screen.getByTestId('general-save'))
    await waitFor(() => expect(field('Autosave delay')).toHaveAttribute('aria-invalid', 'true'))
    expect((await loadSettings(db)).settings.autosaveDelayMs).toBe(800)
    set('Autosave delay', '2000')
    set('Run history size', '5')
    fireEvent.click(screen.getByTestId('general-save'))
    await waitFor(() => expect(settingsStore.getState().settings.autosaveDelayMs).toBe(2000))
    expect((await loadSettings(db)).settings.runHistoryPerFlow).toBe(5)
  })

  it('switches the language from settings', async () => {
    await renderSettings('general')
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'zh-CN' } })
    await screen.findByLabelText('语言')
    expect(settingsStore.getState().settings.language).toBe('zh-CN')
  })
})
