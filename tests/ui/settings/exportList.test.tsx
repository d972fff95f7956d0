// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { listExports, loadSettings } from '../../../src/storage/index.ts'
import type { AppSettings } from '../../../src/settings/schema.ts'
import { settingsStore } from '../../../src/store/settingsStore.ts'
import { resetStores } from '../../app/settingsSupport.ts'
import { renderSettings, useLanguage } from './support.tsx'

const KEY = 'sk-export-ui-55667788990011'

beforeEach(async () => {
  resetStores()
  await useLanguage('en')
})

function withKey(settings: AppSettings): AppSettings {
  return {
    ...settings,
    providers: [
      ...settings.providers,
      {
        id: 'openai',
        label: 'OpenAI',
        kind: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-4o-mini',
        models: [],
        apiKey: KEY,
        stream: true,
        headers: [],
      },
    ],
  }
}

const items = (): HTMLElement[] => screen.queryAllByTestId('settings-export-item')

function choose(file: File): void {
  fireEvent.change(screen.getByTestId('settings-import-input'), { target: { files: [file] } })
}

async function typePassphrase(first: string, second?: string): Promise<HTMLElement> {
  const dialog = await screen.findByTestId('passphrase-dialog')
  fireEvent.change(within(dialog).getByTestId('passphrase-input'), { target: { value: first } })
  if (second !== undefined)
    fireEvent.change(within(dialog).getByTestId('passphrase-confirm-input'), { target: { value: second } })
  fireEvent.click(within(dialog).getByTestId('passphrase-submit'))
  return dialog
}

describe('settings exports in the settings screen', () => {
  it('sanitized export downloads, shows the redacted paths and appears in the list', async () => {
    const harness = await renderSettings('backup')
    await act(() => harness.service.save(withKey(settingsStore.getState().settings)))
    expect(screen.getByTestId('settings-export-list')).toHaveTextContent('No exports yet.')
    fireEvent.click(screen.getByTestId('settings-export-sanitized'))
    await waitFor(() => expect(items()).toHaveLength(1))
    expect(items()[0]).toHaveAttribute('data-kind', 'sanitized')
    expect(items()[0]).toHaveTextContent(/wardflow-sanitized-.*\.wardflow-settings\.json/)
    expect(await screen.findByTestId('redacted-paths')).toHaveTextContent('settings.providers[1].apiKey')
    expect(harness.files.files).toHaveLength(1)
    expect(harness.files.files[0]!.text).not.toContain(KEY)
    expect(document.body.textContent).not.toContain(KEY)
  })

  it('full export asks for the passphrase twice, refuses a short or mismatched one, and lists the export', async () => {
    const harness = await renderSettings('backup')
    await act(() => harness.service.save(withKey(settingsStore.getState().settings)))
    fireEvent.click(screen.getByTestId('settings-export-full'))
    let dialog = await typePassphrase('short', 'short')
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Use at least 8 characters.')
    dialog = await typePassphrase('long enough one', 'long enough two')
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The two passphrases are different.')
    await typePassphrase('long enough one', 'long enough one')
    await waitFor(() => expect(items()).toHaveLength(1), { timeout: 10_000 })
    expect(items()[0]).toHaveAttribute('data-kind', 'full')
    expect(harness.files.files[0]!.text).not.toContain(KEY)
    expect((await listExports(harness.db))[0]?.kind).toBe('full')
  }, 30_000)

  it('full export while keys are locked unlocks them first, then asks for the export passphrase', async () => {
    const first = await renderSettings('backup')
    await act(() => first.service.save(withKey(settingsStore.getState().settings)))
    await act(() => first.service.panel.lockKeys('the lock passphrase'))
    first.view.unmount()
    resetStores()
    const harness = await renderSettings('backup', first.db)
    expect(harness.service.keys.isLocked()).toBe(true)
    fireEvent.click(screen.getByTestId('settings-export-full'))
    const unlock = await screen.findByRole('dialog', { name: 'Unlock your API keys' })
    fireEvent.change(within(unlock).getByTestId('passphrase-input'), {
      target: { value: 'the lock passphrase' },
    })
    fireEvent.click(within(unlock).getByTestId('passphrase-submit'))
    await screen.findByRole('dialog', { name: 'Passphrase for the full export' })
    await typePassphrase('the export passphrase', 'the export passphrase')
    await waitFor(() => expect(items()).toHaveLength(1))
    expect(harness.files.files[0]!.text).not.toContain(KEY)
    expect(JSON.parse(harness.files.files[0]!.text)).toMatchObject({
      kind: 'full',
      encrypted: { cipher: 'AES-256-GCM' },
    })
  }, 60_000)

  it('download, restore and delete act on one entry of the list', async () => {
    const harness = await renderSettings('backup')
    fireEvent.click(screen.getByTestId('settings-export-sanitized'))
    await waitFor(() => expect(items()).toHaveLength(1))
    await act(() => harness.service.save({ ...settingsStore.getState().settings, theme: 'dark' }))
    const entry = items()[0]!
    const fileName = entry.querySelector('strong')?.textContent ?? ''
    fireEvent.click(within(entry).getByRole('button', { name: `Download ${fileName}` }))
    await waitFor(() => expect(harness.files.files).toHaveLength(2))
    expect(harness.files.files[1]).toEqual(harness.files.files[0])

    fireEvent.click(within(entry).getByRole('button', { name: `Restore ${fileName}` }))
    await screen.findByText('Settings imported from a sanitized file.')
    expect(settingsStore.getState().settings.theme).toBe('light')

    fireEvent.click(within(items()[0]!).getByRole('button', { name: `Delete ${fileName}` }))
    await waitFor(() => expect(items()).toHaveLength(0))
    expect(await listExports(harness.db)).toEqual([])
  })

  it('a damaged settings file shows why in an alert and changes nothing', async () => {
    const harness = await renderSettings('backup')
    const before = await loadSettings(harness.db)
    const damaged = JSON.stringify({
      format: 'wardflow.settings',
      version: 1,
      kind: 'sanitized',
      settings: { ...before.settings, theme: 'purple' },
    })
    choose(new File([damaged], 'damaged.wardflow-settings.json'))
    const banner = await screen.findByTestId('error-banner')
    expect(banner).toHaveAttribute('role', 'alert')
    expect(banner).toHaveTextContent('Nothing was imported.')
    expect(banner).toHaveTextContent('settings.theme')
    expect(await loadSettings(harness.db)).toEqual(before)
  })

  it('a full settings file with a wrong passphrase says so and changes nothing', async () => {
    const harness = await renderSettings('backup')
    await act(() => harness.service.save(withKey(settingsStore.getState().settings)))
    await act(() => harness.service.panel.exportFull('the right passphrase'))
    const text = harness.files.files[0]!.text
    await act(() =>
      harness.service.save({
        ...settingsStore.getState().settings,
        theme: 'dark',
        providers: settingsStore.getState().settings.providers.slice(0, 1),
      }),
    )
    const before = await loadSettings(harness.db)

    choose(new File([text], 'full.wardflow-settings.json'))
    const dialog = await typePassphrase('not the right one')
    expect(
      await within(dialog).findByTestId('passphrase-error', undefined, { timeout: 10_000 }),
    ).toHaveTextContent('That passphrase is wrong')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByTestId('passphrase-dialog')).toBeNull())
    expect(await loadSettings(harness.db)).toEqual(before)

    choose(new File([text], 'full.wardflow-settings.json'))
    await typePassphrase('the right passphrase')
    await screen.findByText('Settings and keys imported.', undefined, { timeout: 10_000 })
    expect((await loadSettings(harness.db)).settings.providers.find((p) => p.id === 'openai')?.apiKey).toBe(
      KEY,
    )
  }, 30_000)
})
