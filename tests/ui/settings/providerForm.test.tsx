// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadSettings } from '../../../src/storage/index.ts'
import type { AppSettings } from '../../../src/settings/schema.ts'
import { settingsStore } from '../../../src/store/settingsStore.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../../support/mockOpenAiServer.ts'
import { resetStores } from '../../app/settingsSupport.ts'
import { renderSettings, useLanguage } from './support.tsx'

const KEY = 'sk-test-ui-0123456789abcdef'

let mock: MockOpenAiServer
beforeEach(async () => {
  resetStores()
  await useLanguage('en')
  mock = await startMockOpenAiServer({ apiKey: KEY })
})
afterEach(async () => {
  await mock.close()
})

function withMock(settings: AppSettings, apiKey = KEY): AppSettings {
  return {
    ...settings,
    providers: [
      ...settings.providers,
      {
        id: 'mock',
        label: 'Mock server',
        kind: 'openai',
        baseUrl: mock.baseUrl,
        model: 'mock-model',
        models: [],
        apiKey,
        stream: true,
        headers: [],
      },
    ],
  }
}

async function openEditor(name: string) {
  const item = screen.getAllByTestId('provider-list-item').find((li) => li.textContent?.includes(name))
  fireEvent.click(within(item as HTMLElement).getByRole('button', { name: 'Edit' }))
  return screen.findByTestId('provider-form')
}

function input(label: string): HTMLInputElement {
  return within(screen.getByTestId('provider-form')).getByLabelText(label)
}

describe('provider form: the key stays masked', () => {
  it('never shows the key: masked input, no value attribute, not in the list, shown only by the reveal toggle', async () => {
    const harness = await renderSettings('providers')
    await act(() => harness.service.save(withMock(settingsStore.getState().settings)))
    const list = screen.getByTestId('provider-list')
    expect(list).toHaveTextContent('key stored')
    expect(list.textContent).not.toContain(KEY)

    await openEditor('Mock server')
    const key = input('API key')
    expect(key).toHaveAttribute('type', 'password')
    expect(key.value).toBe(KEY)
    expect(document.body.innerHTML).not.toContain(KEY)
    expect(document.body.textContent).not.toContain(KEY)

    const reveal = screen.getByRole('button', { name: 'Show key' })
    expect(reveal).toHaveAttribute('aria-pressed', 'false')
    fireEvent.click(reveal)
    expect(key).toHaveAttribute('type', 'text')
    expect(screen.getByRole('button', { name: 'Hide key' })).toHaveAttribute('aria-pressed', 'true')
    fireEvent.click(screen.getByRole('button', { name: 'Hide key' }))
    expect(key).toHaveAttribute('type', 'password')
  })

  it('masks the values of secret-named extra headers', async () => {
    await renderSettings('providers')
    fireEvent.click(screen.getByTestId('provider-add'))
    await screen.findByTestId('provider-form')
    fireEvent.click(screen.getByRole('button', { name: 'Add header' }))
    fireEvent.change(input('Header 1 name'), { target: { value: 'X-Team' } })
    expect(input('Header 1 value')).toHaveAttribute('type', 'text')
    fireEvent.change(input('Header 1 name'), { target: { value: 'X-Api-Key' } })
    expect(input('Header 1 value')).toHaveAttribute('type', 'password')
  })
})

describe('provider form: editing', () => {
  it('adds a provider from a preset, tests the connection against a real server and saves it', async () => {
    const { db } = await renderSettings('providers')
    fireEvent.click(screen.getByTestId('provider-add'))
    await screen.findByTestId('provider-form')
    fireEvent.change(input('Id'), { target: { value: 'local' } })
    fireEvent.change(input('Name'), { target: { value: 'Local mock' } })
    fireEvent.change(input('Server preset'), { target: { value: 'ollama' } })
    expect(input('Base URL').value).toBe('http://localhost:11434/v1')
    fireEvent.change(input('Base URL'), { target: { value: mock.baseUrl } })
    expect(input('Server preset').value).toBe('custom')

    fireEvent.change(input('API key'), { target: { value: 'sk-wrong-9999999999' } })
    fireEvent.click(screen.getByTestId('provider-test'))
    const failed = await screen.findByRole('alert')
    await waitFor(() =>
      expect(screen.getByTestId('provider-test-result')).toHaveAttribute('data-ok', 'false'),
    )
    expect(failed.textContent).not.toContain('sk-wrong-9999999999')

    fireEvent.change(input('API key'), { target: { value: KEY } })
    fireEvent.click(screen.getByTestId('provider-test'))
    await waitFor(() =>
      expect(screen.getByTestId('provider-test-result')).toHaveTextContent(
        'Connected: the server offers 2 models.',
      ),
    )
    // An empty default model takes the first model the server lists.
    expect(input('Default model').value).toBe('mock-model')
    fireEvent.click(screen.getByTestId('provider-load-models'))
    await screen.findByText("2 models loaded from the server's list.")
    const options = [...document.querySelectorAll('datalist option')].map((o) => o.getAttribute('value'))
    expect(options).toEqual(['mock-model', 'mock-model-large'])
    fireEvent.change(input('Default model'), { target: { value: 'mock-model-large' } })
    fireEvent.click(screen.getByRole('switch', { name: 'Stream replies' }))
    fireEvent.click(screen.getByTestId('provider-save'))

    await waitFor(() => expect(screen.queryByTestId('provider-form')).toBeNull())
    const saved = (await loadSettings(db)).settings.providers.find((p) => p.id === 'local')
    expect(saved).toMatchObject({
      label: 'Local mock',
      kind: 'openai',
      baseUrl: mock.baseUrl,
      model: 'mock-model-large',
      stream: false,
      apiKey: KEY,
    })
    expect(JSON.stringify(await db.settings.toArray())).not.toContain(KEY)
  })

  it('refuses an id that is taken or malformed and a missing base URL, inline', async () => {
    const { db } = await renderSettings('providers')
    const before = await loadSettings(db)
    fireEvent.click(screen.getByTestId('provider-add'))
    await screen.findByTestId('provider-form')
    fireEvent.change(input('Id'), { target: { value: 'demo' } })
    fireEvent.change(input('Base URL'), { target: { value: '' } })
    fireEvent.click(screen.getByTestId('provider-save'))
    expect(await screen.findByText('Another provider already has this id.')).toBeInTheDocument()
    expect(screen.getByText(/needs a base URL/)).toBeInTheDocument()
    fireEvent.change(input('Id'), { target: { value: 'has space' } })
    expect(await screen.findByText(/only letters, digits/)).toBeInTheDocument()
    expect(await loadSettings(db)).toEqual(before)
  })

  it('chooses the default provider and removes a provider after asking', async () => {
    const harness = await renderSettings('providers')
    await act(() => harness.service.save(withMock(settingsStore.getState().settings)))
    fireEvent.change(screen.getByLabelText(/Default provider/), { target: { value: 'mock' } })
    await waitFor(() => expect(settingsStore.getState().settings.defaultProviderId).toBe('mock'))
    const item = screen
      .getAllByTestId('provider-list-item')
      .find((li) => li.textContent?.includes('Mock server'))
    fireEvent.click(within(item as HTMLElement).getByRole('button', { name: 'Remove' }))
    await screen.findByRole('dialog', { name: 'Remove Mock server?' })
    fireEvent.click(screen.getByTestId('provider-remove-confirm'))
    await waitFor(() =>
      expect(settingsStore.getState().settings.providers.map((p) => p.id)).toEqual(['demo']),
    )
    expect(settingsStore.getState().settings.defaultProviderId).toBe('demo')
    expect((await loadSettings(harness.db)).settings.providers.map((p) => p.id)).toEqual(['demo'])
  })

  it('offers to unlock instead of the key while keys are locked', async () => {
    const harness = await renderSettings('providers')
    await act(() => harness.service.save(withMock(settingsStore.getState().settings)))
    await act(() => harness.service.panel.lockKeys('long enough passphrase'))
    // A new tab: the session is forgotten.
    harness.view.unmount()
    resetStores()
    const again = await renderSettings('providers', harness.db)
    expect(again.service.keys.isLocked()).toBe(true)
    expect(screen.getAllByTestId('provider-list')[0]).toHaveTextContent('keys locked')
    await openEditor('Mock server')
    expect(input('API key')).toBeDisabled()
    fireEvent.click(screen.getByTestId('provider-unlock'))
    const dialog = await screen.findByTestId('passphrase-dialog')
    fireEvent.change(within(dialog).getByLabelText('Passphrase'), { target: { value: 'wrong one!' } })
    fireEvent.click(within(dialog).getByTestId('passphrase-submit'))
    expect(await within(dialog).findByTestId('passphrase-error')).toHaveTextContent(
      'That passphrase is wrong',
    )
  }, 30_000)
})
