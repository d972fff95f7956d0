/**
 * Settings (`open-settings`): providers (`provider-form`), settings export/import and the
 * danger zone. Tabs and fields are found by their English names unless a method says otherwise.
 */
import { expect, type Locator, type Page } from '@playwright/test'
import { downloadOf, type DownloadedFile } from '../support/files.ts'

export interface ProviderInput {
  id: string
  name?: string
  kind: 'openai' | 'anthropic' | 'demo'
  baseUrl?: string
  apiKey?: string
  model?: string
  stream?: boolean
  /** Extra request headers, e.g. an Authorization header. */
  headers?: Array<[string, string]>
}

export type DangerAction = 'clear-cache' | 'delete-all-flows'

export class SettingsPage {
  readonly openButton: Locator
  readonly dialog: Locator

  constructor(readonly page: Page) {
    this.openButton = page.getByTestId('open-settings')
    this.dialog = page.getByTestId('settings-dialog')
  }

  async open(): Promise<void> {
    await expect(this.openButton).toBeEnabled()
    await this.openButton.click()
    await expect(this.dialog).toBeVisible()
  }

  async close(): Promise<void> {
    await this.page.keyboard.press('Escape')
    await expect(this.dialog).toBeHidden()
  }

  /** Opens a settings tab by its visible name (any language). */
  async tab(name: string): Promise<void> {
    await this.dialog.getByRole('tab', { name, exact: true }).click()
    await expect(this.dialog.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true')
  }

  providerItems(): Locator {
    return this.dialog.getByRole('list', { name: 'Providers' }).getByRole('listitem')
  }

  providerItem(id: string): Locator {
    return this.providerItems().filter({ hasText: id })
  }

  /** Adds a provider through `provider-form` and, when asked, makes it the default. */
  async addProvider(p: ProviderInput, makeDefault = true): Promise<void> {
    await this.tab('Providers')
    await this.dialog.getByRole('button', { name: 'Add provider' }).click()
    const form = this.page.getByTestId('provider-form')
    await expect(form).toBeVisible()
    await form.getByLabel('Id', { exact: true }).fill(p.id)
    await form.getByLabel('Name', { exact: true }).fill(p.name ?? p.id)
    await form.getByLabel('Kind', { exact: true }).selectOption(p.kind)
    if (p.baseUrl !== undefined) await form.getByLabel('Base URL', { exact: true }).fill(p.baseUrl)
    if (p.model !== undefined) await form.getByLabel('Default model', { exact: true }).fill(p.model)
    if (p.apiKey !== undefined) await form.getByLabel('API key', { exact: true }).fill(p.apiKey)
    if (p.stream === false) await form.getByRole('switch', { name: 'Stream replies' }).click()
    for (const [i, [name, value]] of (p.headers ?? []).entries()) {
      await form.getByRole('button', { name: 'Add header' }).click()
      await form.getByLabel(`Header ${i + 1} name`, { exact: true }).fill(name)
      await form.getByLabel(`Header ${i + 1} value`, { exact: true }).fill(value)
    }
    await form.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(form).toBeHidden()
    await expect(this.providerItem(p.id)).toHaveCount(1)
    if (makeDefault) {
      await this.dialog.getByLabel('Default provider (used by nodes that name none)').selectOption(p.id)
      await expect(this.providerItem(p.id)).toContainText('default')
    }
  }

  providerForm(): Locator {
    return this.page.getByTestId('provider-form')
  }

  /** Opens the provider form for a new provider (Providers tab, "Add provider"). */
  async startProvider(): Promise<Locator> {
    await this.tab('Providers')
    await this.dialog.getByRole('button', { name: 'Add provider' }).click()
    await expect(this.providerForm()).toBeVisible()
    return this.providerForm()
  }

  /** Opens the provider form of an existing provider. */
  async editProvider(id: string): Promise<Locator> {
    await this.tab('Providers')
    await this.providerItem(id).getByRole('button', { name: 'Edit' }).click()
    await expect(this.providerForm()).toBeVisible()
    return this.providerForm()
  }

  /** Answers an open "Lock your API keys" prompt: the new passphrase twice, then Lock keys. */
  async answerLockPrompt(passphrase: string): Promise<void> {
    const prompt = this.passphraseDialog()
    await expect(prompt).toBeVisible()
    await prompt.getByLabel('New passphrase').fill(passphrase)
    await prompt.getByLabel('Type the passphrase again').fill(passphrase)
    await prompt.getByRole('button', { name: 'Lock keys' }).click()
    await expect(prompt).toBeHidden()
  }

  async removeProvider(id: string): Promise<void> {
    await this.tab('Providers')
    await this.providerItem(id).getByRole('button', { name: 'Remove' }).click()
    const confirm = this.page.getByRole('dialog', { name: `Remove ${id}?` })
    await confirm.getByRole('button', { name: 'Remove' }).click()
    await expect(this.providerItem(id)).toHaveCount(0)
  }

  async exportSanitized(): Promise<DownloadedFile> {
    await this.tab('Export and import')
    return downloadOf(this.page, () => this.dialog.getByTestId('settings-export-sanitized').click())
  }

  passphraseDialog(): Locator {
    return this.page.getByTestId('passphrase-dialog')
  }

  /** Full export: the passphrase is typed twice in the passphrase dialog. */
  async exportFull(passphrase: string): Promise<DownloadedFile> {
    await this.tab('Export and import')
    await this.dialog.getByTestId('settings-export-full').click()
    const prompt = this.passphraseDialog()
    await expect(prompt).toBeVisible()
    await prompt.getByLabel('New passphrase').fill(passphrase)
    await prompt.getByLabel('Type the passphrase again').fill(passphrase)
    return downloadOf(this.page, () => prompt.getByRole('button', { name: 'Export' }).click())
  }

  importInput(): Locator {
    return this.dialog.getByTestId('settings-import-input')
  }

  async importFile(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    await this.tab('Export and import')
    await this.importInput().setInputFiles(file)
  }

  /** Opens a danger-zone dialog (the tab name is given in the UI language). */
  async openDanger(action: DangerAction, tabName = 'Danger zone'): Promise<Locator> {
    await this.tab(tabName)
    await this.dialog.getByTestId(`danger-${action}`).click()
    const dialog = this.page.getByTestId('danger-dialog')
    await expect(dialog).toBeVisible()
    return dialog
  }

  /**
   * Budget tab: types the default whole-run token limit (empty = none) key by key and saves.
   * Typing, not fill: the field must take what a person's keystrokes make of it.
   */
  async setDefaultRunTokens(text: string): Promise<void> {
    await this.tab('Budget')
    const field = this.dialog.getByTestId('settings-run-limit-tokens')
    await field.clear()
    if (text !== '') await field.pressSequentially(text)
    await this.dialog.getByTestId('budget-save').click()
    await expect(this.dialog.getByTestId('budget-status')).toHaveText('Saved.')
  }
}
