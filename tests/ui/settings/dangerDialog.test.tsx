// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { listFlows, saveFlow, saveRun } from '../../../src/storage/index.ts'
import { settingsStore } from '../../../src/store/settingsStore.ts'
import { phraseMatches } from '../../../src/ui/settings/DangerDialog.tsx'
import { settingsUiStore } from '../../../src/store/settingsUiStore.ts'
import { resetStores } from '../../app/settingsSupport.ts'
import { freshDb, sampleFlow, sampleRun } from '../../storage/support.ts'
import { renderSettings, useLanguage } from './support.tsx'

beforeEach(async () => {
  resetStores()
  await useLanguage('en')
})

function type(text: string): void {
  fireEvent.change(screen.getByTestId('danger-confirm-input'), { target: { value: text } })
}

const confirm = (): HTMLElement => screen.getByTestId('danger-confirm-button')

describe('danger phrase matching', () => {
  it('matches only the exact phrase: no trimming, no case folding', () => {
    expect(phraseMatches('CLEAR CACHE', 'CLEAR CACHE')).toBe(true)
    expect(phraseMatches('clear cache', 'CLEAR CACHE')).toBe(false)
    expect(phraseMatches(' CLEAR CACHE', 'CLEAR CACHE')).toBe(false)
    expect(phraseMatches('CLEAR CACHE ', 'CLEAR CACHE')).toBe(false)
    expect(phraseMatches('CLEAR  CACHE', 'CLEAR CACHE')).toBe(false)
    expect(phraseMatches('清空缓存 ', '清空缓存')).toBe(false)
  })
})

describe('danger zone dialogs (English)', () => {
  it('clear cache: says what goes and stays, enables confirm only for the exact phrase, Esc cancels', async () => {
    const db = await freshDb()
    await saveFlow(db, sampleFlow('flow_a', 'A'))
    await saveRun(db, sampleRun('flow_a', 1))
    await saveRun(db, sampleRun('flow_a', 2))
    await renderSettings('danger', db)
    const opener = screen.getByTestId('danger-clear-cache')
    opener.focus()
    fireEvent.click(opener)
    const dialog = await screen.findByRole('dialog', { name: 'Clear cache' })
    expect(dialog).toHaveAttribute('aria-modal', 'true')
    await waitFor(() =>
      expect(within(dialog).getByTestId('danger-goes')).toHaveTextContent('Run history (run records): 2'),
    )
    expect(within(dialog).getByTestId('danger-stays')).toHaveTextContent('Flows: 1')
    expect(screen.getByTestId('danger-confirm-input')).toHaveFocus()
    expect(screen.getByLabelText(/To confirm, type/)).toBe(screen.getByTestId('danger-confirm-input'))

    for (const wrong of ['', 'clear cache', 'CLEAR CACHE ', ' CLEAR CACHE', 'CLEAR CACH', '清空缓存']) {
      type(wrong)
      expect(confirm()).toBeDisabled()
    }
    type('CLEAR CACHE')
    expect(confirm()).toBeEnabled()

    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByTestId('danger-dialog')).toBeNull())
    // Only the inner dialog closed; focus went back to the button that opened it.
    expect(screen.getByTestId('settings-dialog')).toBeInTheDocument()
    expect(opener).toHaveFocus()
    expect(await db.runs.count()).toBe(2)
  })

  it('clear cache: confirming deletes the run history and keeps the flows', async () => {
    const db = await freshDb()
    await saveFlow(db, sampleFlow('flow_a', 'A'))
    await saveRun(db, sampleRun('flow_a', 1))
    await renderSettings('danger', db)
    fireEvent.click(screen.getByTestId('danger-clear-cache'))
    await screen.findByTestId('danger-dialog')
    await waitFor(() =>
      expect(screen.getByTestId('danger-goes')).toHaveTextContent('Run history (run records): 1'),
    )
    type('CLEAR CACHE')
    fireEvent.click(confirm())
    await waitFor(() => expect(screen.queryByTestId('danger-dialog')).toBeNull())
    expect(await db.runs.count()).toBe(0)
    expect(await db.flows.count()).toBe(1)
  })

  it('reset settings needs RESET SETTINGS and puts settings back to defaults', async () => {
    const db = await freshDb()
    const { service } = await renderSettings('danger', db)
    await act(() => service.save({ ...settingsStore.getState().settings, theme: 'dark' }))
    fireEvent.click(screen.getByTestId('danger-reset-settings'))
    await screen.findByTestId('danger-dialog')
    type('RESET SETTING')
    expect(confirm()).toBeDisabled()
    type('RESET SETTINGS')
    await waitFor(() => expect(confirm()).toBeEnabled())
    fireEvent.click(confirm())
    await waitFor(() => expect(settingsStore.getState().settings.theme).toBe('light'))
  })
})

describe('danger zone dialogs (简体中文)', () => {
  it('delete all flows needs 删除所有工作流, then a fresh empty flow opens', async () => {
    const db = await freshDb()
    await saveFlow(db, sampleFlow('flow_a', 'A'))
    await saveFlow(db, sampleFlow('flow_b', 'B'))
    const { flows } = await renderSettings('danger', db, 'zh-CN')
    fireEvent.click(screen.getByTestId('danger-delete-all-flows'))
    const dialog = await screen.findByRole('dialog', { name: '删除所有工作流' })
    await waitFor(() => expect(within(dialog).getByTestId('danger-goes')).toHaveTextContent('工作流：2 个'))
    type('DELETE ALL FLOWS')
    expect(confirm()).toBeDisabled()
    type('删除所有工作流 ')
    expect(confirm()).toBeDisabled()
    type('删除所有工作流')
    expect(confirm()).toBeEnabled()
    fireEvent.click(confirm())
    await waitFor(() => expect(flows.created).toBe(1))
    expect(await listFlows(db)).toEqual([])
  })

  it('clear cache and reset settings use 清空缓存 and 重置设置', async () => {
    await renderSettings('danger', undefined, 'zh-CN')
    for (const [button, phrase, english] of [
      ['danger-clear-cache', '清空缓存', 'CLEAR CACHE'],
      ['danger-reset-settings', '重置设置', 'RESET SETTINGS'],
    ] as const) {
      fireEvent.click(screen.getByTestId(button))
      await screen.findByTestId('danger-dialog')
      await waitFor(() => expect(screen.queryByText('加载中…')).toBeNull())
      type(english)
      expect(confirm()).toBeDisabled()
      type(phrase)
      expect(confirm()).toBeEnabled()
      fireEvent.click(screen.getByRole('button', { name: '取消' }))
      await waitFor(() => expect(screen.queryByTestId('danger-dialog')).toBeNull())
    }
    expect(settingsUiStore.getState().open).toBe(true)
  })
})
