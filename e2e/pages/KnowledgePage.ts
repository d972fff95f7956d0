/** The Knowledge screen (`knowledge-screen`): bases, a new-base form, dropped documents. */
import { expect, type Locator, type Page } from '@playwright/test'

export interface DroppedFile {
  name: string
  type: string
  /** Text, or base64 of the bytes when `base64` is set. */
  content: string
  base64?: boolean
}

export class KnowledgePage {
  readonly screen: Locator
  readonly bases: Locator
  readonly documents: Locator
  readonly drop: Locator
  readonly outcomes: Locator

  constructor(readonly page: Page) {
    this.screen = page.getByTestId('knowledge-screen')
    this.bases = this.screen.getByTestId('knowledge-base-item')
    this.documents = this.screen.getByTestId('knowledge-document-item')
    this.drop = this.screen.getByTestId('knowledge-drop')
    this.outcomes = this.screen.getByTestId('knowledge-outcomes')
  }

  async open(): Promise<void> {
    await this.page.getByTestId('open-knowledge').click()
    await expect(this.screen).toBeVisible()
  }

  async close(): Promise<void> {
    await this.screen.getByRole('button', { name: 'Close' }).last().click()
    await expect(this.screen).toBeHidden()
  }

  /** Types the new base's id and name and presses Create. */
  async createBase(id: string, name: string): Promise<void> {
    await this.screen.getByLabel('Base id').fill(id)
    await this.screen.getByLabel('Name', { exact: true }).fill(name)
    await this.screen.getByTestId('knowledge-create-base').click()
    await expect(this.base(id)).toHaveAttribute('aria-pressed', 'true')
  }

  base(id: string): Locator {
    return this.screen.locator(`[data-testid="knowledge-base-item"][data-base-id="${id}"]`)
  }

  document(name: string): Locator {
    return this.screen.locator(`[data-testid="knowledge-document-item"][data-name="${name}"]`)
  }

  /** Drops files from the desktop on the selected base's drop zone, as the browser hands them over. */
  async dropFiles(files: readonly DroppedFile[]): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle((list) => {
      const transfer = new DataTransfer()
      for (const file of list) {
        const bytes = file.base64 ? Uint8Array.from(atob(file.content), (c) => c.charCodeAt(0)) : file.content
        transfer.items.add(new File([bytes], file.name, { type: file.type }))
      }
      return transfer
    }, files)
    for (const type of ['dragenter', 'dragover', 'drop'])
      await this.drop.dispatchEvent(type, { dataTransfer })
    await expect(this.outcomes).toBeVisible({ timeout: 30_000 })
  }
}
