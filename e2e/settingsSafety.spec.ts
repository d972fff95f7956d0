/**
 * Settings that must not betray a person: an imported settings file never carries a stored key
 * to another host, an import that says it applied did apply (also after a reload), keys can be
 * locked before the first one is stored, and the provider form keeps kind and URL in step.
 */
import { WardflowApp } from './pages/WardflowApp.ts'
import { jsonFile } from './support/files.ts'
import { expect, test } from './support/fixtures.ts'

const KEY = 'sk-e2e-ORIGIN-1a2b3c4d5e6f7a8b9c0d'

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('a sanitized settings file that moves a provider to another host does not take its key; the new URL holds after a reload', async ({
  app,
  page,
}) => {
  const { settings } = app
  await settings.open()
  await settings.addProvider(
    { id: 'work', kind: 'openai', baseUrl: 'https://api.example.test/v1', apiKey: KEY, model: 'm-1' },
    false,
  )
  await expect(settings.providerItem('work')).toContainText('key stored')
  const sanitized = await settings.exportSanitized()
  const file = JSON.parse(sanitized.text) as {
    settings: { providers: Array<{ id: string; baseUrl: string }> }
  }
  const work = file.settings.providers.find((p) => p.id === 'work')
  if (work === undefined) throw new Error('the export lost the provider')
  work.baseUrl = 'https://collect.attacker.test/v1'

  await settings.importFile(jsonFile('shared.wardflow-settings.json', file))
  const outcome = settings.dialog.getByTestId('settings-outcome')
  await expect(outcome).toContainText('Settings imported')
  await expect(outcome).toContainText('api.example.test')
  await expect(outcome).toContainText('collect.attacker.test')

  await app.reload()
  await settings.open()
  await expect(settings.providerItem('work')).toContainText('collect.attacker.test')
  await expect(settings.providerItem('work')).toContainText('no key')
  await settings.providerItem('work').getByRole('button', { name: 'Edit' }).click()
  const form = page.getByTestId('provider-form')
  await expect(form.getByLabel('Base URL', { exact: true })).toHaveValue('https://collect.attacker.test/v1')
  await expect(form.getByLabel('API key', { exact: true })).toHaveValue('')
})

test('an import in one tab holds when a second, stale tab changes its theme, and that tab shows the import', async ({
  app,
  page,
}) => {
  const { settings } = app
  await settings.open()
  await settings.addProvider(
    { id: 'work', kind: 'openai', baseUrl: 'https://api.example.test/v1', model: 'm-1' },
    false,
  )
  const sanitized = await settings.exportSanitized()
  await settings.close()

  const second = await page.context().newPage()
  await second.goto('./')
  const other = new WardflowApp(second)
  await other.ready()

  const file = JSON.parse(sanitized.text) as {
    settings: { providers: Array<{ id: string; baseUrl: string }> }
  }
  const work = file.settings.providers.find((p) => p.id === 'work')
  if (work === undefined) throw new Error('the export lost the provider')
  work.baseUrl = 'https://moved.example.test/v1'
  await settings.open()
  await settings.importFile(jsonFile('moved.wardflow-settings.json', file))
  await expect(settings.dialog.getByTestId('settings-outcome')).toContainText('Settings imported')
  await settings.close()

  // The other tab, opened before the import, toggles its theme (its copy of the rest is old).
  await second.getByTestId('toggle-theme').click()
  await other.settings.open()
  await other.settings.tab('Providers')
  await expect(other.settings.providerItem('work')).toContainText('moved.example.test')
  await other.settings.close()

  await app.reload()
  await settings.open()
  await settings.tab('Providers')
  await expect(settings.providerItem('work')).toContainText('moved.example.test')
  await second.close()
})

test('kind and server preset stay in step in the provider form', async ({ app }) => {
  const { settings } = app
  await settings.open()
  const form = await settings.startProvider()
  const kind = form.getByLabel('Kind', { exact: true })
  const preset = form.getByLabel('Server preset', { exact: true })
  const url = form.getByLabel('Base URL', { exact: true })

  await preset.selectOption({ label: 'Ollama (local)' })
  await expect(kind).toHaveValue('openai')
  await expect(url).toHaveValue('http://localhost:11434/v1')

  // Anthropic cannot talk to Ollama: the URL moves to Anthropic's server and the preset follows.
  await kind.selectOption({ label: 'Anthropic' })
  await expect(url).toHaveValue('https://api.anthropic.com')
  await expect(preset).toHaveValue('anthropic')
  await expect(form.getByTestId('provider-kind-note')).toContainText('https://api.anthropic.com')

  // Typing Ollama's URL by hand with the Anthropic kind is refused before it is saved.
  await url.fill('http://localhost:11434/v1')
  await expect(preset).toHaveValue('custom')
  await form.getByLabel('Id', { exact: true }).fill('mixed')
  await form.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(form.getByRole('alert')).toContainText('another kind')
  await expect(form).toBeVisible()

  await preset.selectOption({ label: 'Ollama (local)' })
  await expect(kind).toHaveValue('openai')
  await form.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(form).toBeHidden()
  await expect(settings.providerItem('mixed')).toContainText('OpenAI-compatible')
  await expect(settings.providerItem('mixed')).toContainText('localhost:11434')
})

test('the built-in demo provider cannot be removed, keeps its id and kind, and comes back with a file that lacks it', async ({
  app,
}) => {
  const { settings } = app
  await settings.open()
  await settings.tab('Providers')
  const demo = settings.providerItem('Demo (offline)')
  await expect(demo).toHaveCount(1)
  await expect(demo.getByRole('button', { name: 'Remove' })).toHaveCount(0)
  await expect(demo).toContainText('cannot be removed')

  const form = await settings.editProvider('Demo (offline)')
  await expect(form.getByLabel('Id', { exact: true })).not.toBeEditable()
  await expect(form.getByLabel('Kind', { exact: true })).toBeDisabled()
  await expect(form.getByTestId('provider-built-in')).toBeVisible()
  await form.getByRole('button', { name: 'Cancel' }).click()

  await settings.addProvider({ id: 'only', kind: 'openai', baseUrl: 'https://api.example.test/v1' }, true)
  const sanitized = await settings.exportSanitized()
  const file = JSON.parse(sanitized.text) as { settings: { providers: Array<{ id: string }> } }
  file.settings.providers = file.settings.providers.filter((p) => p.id !== 'demo')
  await settings.importFile(jsonFile('no-demo.wardflow-settings.json', file))
  await expect(settings.dialog.getByTestId('settings-outcome')).toContainText('no built-in demo provider')
  await app.reload()
  await settings.open()
  await settings.tab('Providers')
  await expect(settings.providerItem('Demo (offline)')).toHaveCount(1)
})

const PASSPHRASE = 'correct horse battery staple'
const FIRST_KEY = 'sk-e2e-FIRSTWRITE-0a1b2c3d4e5f6a7b8c'

test('keys can be locked before the first one is stored, so it is never written readable; the Keys tab says what a later lock cannot erase', async ({
  app,
  page,
}) => {
  const { settings } = app
  await settings.open()
  await settings.tab('API keys')
  const keysTab = page.getByTestId('keys-tab')
  await expect(keysTab.getByTestId('keys-at-rest')).toContainText('until the browser compacts them')
  await expect(keysTab.getByTestId('keys-at-rest')).toContainText('rotate it')
  await expect(keysTab.getByTestId('keys-first-key')).toBeVisible()

  const form = await settings.startProvider()
  await expect(form.getByTestId('lock-first')).toBeVisible()
  await form.getByRole('button', { name: 'Lock keys first' }).click()
  await settings.answerLockPrompt(PASSPHRASE)
  await expect(form.getByTestId('lock-first-done')).toBeVisible()
  await expect(form.getByTestId('lock-first')).toHaveCount(0)
  await form.getByLabel('Id', { exact: true }).fill('first')
  await form.getByLabel('API key', { exact: true }).click()
  await page.keyboard.type(FIRST_KEY)
  await form.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(form).toBeHidden()
  await expect(settings.providerItem('first')).toContainText('key stored')

  // What IndexedDB holds: the keys row is encrypted, and the key appears nowhere in plain text.
  const stored = await page.evaluate(
    () =>
      new Promise<{ state: string; dump: string }>((resolve, reject) => {
        const open = indexedDB.open('wardflow')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          const names = [...db.objectStoreNames]
          const tx = db.transaction(names, 'readonly')
          const dump: unknown[] = []
          let state = ''
          for (const name of names) {
            const all = tx.objectStore(name).getAll()
            all.onsuccess = () => {
              dump.push(all.result)
              if (name === 'secrets') state = String((all.result[0] as { state?: string } | undefined)?.state)
            }
          }
          tx.oncomplete = () => resolve({ state, dump: JSON.stringify(dump) })
        }
      }),
  )
  expect(stored.state).toBe('locked')
  expect(stored.dump).not.toContain(FIRST_KEY)
  expect(stored.dump).not.toContain('FIRSTWRITE')

  await settings.tab('API keys')
  await expect(page.getByTestId('key-state')).toHaveAttribute('data-state', 'unlocked')
})
