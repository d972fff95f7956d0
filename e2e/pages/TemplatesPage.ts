/** The template gallery (`template-gallery`, `template-item`) and the welcome's shortcuts to it. */
import { expect, type Locator, type Page } from '@playwright/test'

export class TemplatesPage {
  readonly gallery: Locator
  readonly items: Locator

  constructor(readonly page: Page) {
    this.gallery = page.getByTestId('template-gallery')
    this.items = this.gallery.getByTestId('template-item')
  }

  /** Opens the gallery from the toolbar. */
  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'Templates', exact: true }).click()
    await expect(this.gallery).toBeVisible()
    await expect(this.items.first()).toBeVisible()
  }

  async ids(): Promise<string[]> {
    return this.items.evaluateAll((els) => els.map((el) => el.getAttribute('data-template-id') ?? ''))
  }

  item(id: string): Locator {
    return this.gallery.locator(`[data-testid="template-item"][data-template-id="${id}"]`)
  }

  /** Opens template `id` as a new flow; the gallery closes and its nodes appear. */
  async openTemplate(id: string): Promise<void> {
    await this.item(id).getByRole('button').click()
    await expect(this.gallery).toBeHidden()
    await expect(this.page.getByTestId('flow-node').first()).toBeVisible()
  }

  /** The empty canvas's "See the loop breaker" button. */
  loopBreakerButton(): Locator {
    return this.page.getByRole('button', { name: 'See the loop breaker' })
  }
}
