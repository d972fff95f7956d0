/**
 * The whole app as one person sees it: the toolbar, and a page object per area. Specs start
 * with `await app.open()`.
 */
import { expect, type Locator, type Page } from '@playwright/test'
import { downloadOf, type DownloadedFile } from '../support/files.ts'
import { CanvasPage } from './CanvasPage.ts'
import { FlowListPage } from './FlowListPage.ts'
import { InspectorPage } from './InspectorPage.ts'
import { KnowledgePage } from './KnowledgePage.ts'
import { RunPage } from './RunPage.ts'
import { SettingsPage } from './SettingsPage.ts'
import { TemplatesPage } from './TemplatesPage.ts'

export class WardflowApp {
  readonly canvas: CanvasPage
  readonly inspector: InspectorPage
  readonly flows: FlowListPage
  readonly settings: SettingsPage
  readonly run: RunPage
  readonly templates: TemplatesPage
  readonly knowledge: KnowledgePage
  readonly undoButton: Locator
  readonly redoButton: Locator
  readonly languageSelect: Locator
  readonly saveStatus: Locator
  readonly errorBanner: Locator

  constructor(readonly page: Page) {
    this.canvas = new CanvasPage(page)
    this.inspector = new InspectorPage(page)
    this.flows = new FlowListPage(page)
    this.settings = new SettingsPage(page)
    this.run = new RunPage(page)
    this.templates = new TemplatesPage(page)
    this.knowledge = new KnowledgePage(page)
    this.undoButton = page.getByTestId('undo')
    this.redoButton = page.getByTestId('redo')
    this.languageSelect = page.getByTestId('language-select')
    this.saveStatus = page.getByTestId('save-status')
    this.errorBanner = page.getByTestId('error-banner')
  }

  /** Loads the app (relative URL: works under / and under a sub-path) and waits for its flow. */
  async open(): Promise<void> {
    await this.page.goto('./')
    await this.ready()
  }

  async reload(): Promise<void> {
    await this.page.reload()
    await this.ready()
  }

  async ready(): Promise<void> {
    await expect(this.canvas.surface).toBeVisible()
    await this.flows.ready()
  }

  /** Waits until autosave has written the latest change. */
  async saved(): Promise<void> {
    await expect(this.saveStatus).toHaveAttribute('data-status', 'saved', { timeout: 15_000 })
  }

  async setLanguage(language: 'en' | 'zh-CN'): Promise<void> {
    await this.languageSelect.selectOption(language)
    await expect(this.page.locator('html')).toHaveAttribute('lang', language)
  }

  async exportWorkflow(): Promise<DownloadedFile> {
    return downloadOf(this.page, () => this.page.getByTestId('export-workflow').click())
  }

  /** Import through the toolbar button and the file chooser it opens (`import-workflow-input`). */
  async importWorkflow(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    const [chooser] = await Promise.all([
      this.page.waitForEvent('filechooser'),
      this.page.getByTestId('import-workflow').click(),
    ])
    expect(await chooser.element().getAttribute('id')).toBe('import-workflow-input')
    await chooser.setFiles(file)
  }
}
