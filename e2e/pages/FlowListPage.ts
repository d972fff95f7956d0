/** The list of saved flows (`flow-list`): new, open, rename, duplicate, delete, search. */
import { expect, type Locator, type Page } from '@playwright/test'

export class FlowListPage {
  readonly root: Locator
  readonly items: Locator
  readonly newButton: Locator
  readonly search: Locator

  constructor(readonly page: Page) {
    this.root = page.getByTestId('flow-list')
    this.items = page.getByTestId('flow-list-item')
    this.newButton = page.getByTestId('new-flow')
    this.search = page.getByRole('searchbox')
  }

  /** The entry whose name is exactly `name`. */
  item(name: string): Locator {
    return this.items.filter({ has: this.page.getByText(name, { exact: true }) })
  }

  current(): Locator {
    return this.items.and(this.page.locator('[data-current="true"]'))
  }

  async names(): Promise<string[]> {
    return this.items.locator('.wf-flow-item__name').allInnerTexts()
  }

  async ready(): Promise<void> {
    await expect(this.root).toHaveAttribute('aria-busy', 'false')
    await expect(this.current()).toHaveCount(1)
  }

  async create(): Promise<void> {
    const count = await this.items.count()
    await this.newButton.click()
    await expect(this.items).toHaveCount(count + 1)
  }

  async open(name: string): Promise<void> {
    await this.item(name)
      .getByRole('button', { name: new RegExp(`^${escape(name)}`) })
      .click()
    await expect(this.current()).toContainText(name)
  }

  async rename(from: string, to: string): Promise<void> {
    await this.item(from)
      .getByRole('button', { name: `Rename ${from}`, exact: true })
      .click()
    const input = this.root.getByRole('textbox', { name: 'New name' })
    await input.fill(to)
    await input.press('Enter')
    await expect(this.item(to)).toHaveCount(1)
  }

  async duplicate(name: string): Promise<void> {
    await this.item(name)
      .getByRole('button', { name: `Duplicate ${name}`, exact: true })
      .click()
  }

  /** Opens the delete confirmation of a flow; returns the dialog. */
  async askDelete(name: string): Promise<Locator> {
    await this.item(name)
      .getByRole('button', { name: `Delete ${name}`, exact: true })
      .click()
    const dialog = this.page.getByRole('dialog', { name: 'Delete this flow?' })
    await expect(dialog).toBeVisible()
    return dialog
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
