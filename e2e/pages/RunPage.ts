/** Running a flow: the toolbar's Run and Stop, node statuses, consoles, the run panel and banner. */
import { expect, type Locator, type Page } from '@playwright/test'

export type NodeStatus = 'idle' | 'queued' | 'running' | 'success' | 'error' | 'skipped' | 'stopped'

export class RunPage {
  readonly runButton: Locator
  readonly stopButton: Locator
  readonly errorBanner: Locator
  /** The run panel's summary of the flow's result (what Output nodes produced). */
  readonly result: Locator

  constructor(readonly page: Page) {
    this.runButton = page.getByTestId('run-flow')
    this.stopButton = page.getByTestId('stop-flow')
    this.errorBanner = page.getByTestId('error-banner')
    this.result = page.getByTestId('run-result')
  }

  node(id: string): Locator {
    return this.page.locator(`[data-testid="flow-node"][data-node-id="${id}"]`)
  }

  console(id: string): Locator {
    return this.node(id).getByTestId('node-console')
  }

  async start(): Promise<void> {
    await expect(this.runButton).toBeEnabled()
    await this.runButton.click()
  }

  async stop(): Promise<void> {
    await expect(this.stopButton).toBeEnabled()
    await this.stopButton.click()
  }

  async expectStatus(id: string, status: NodeStatus, timeout = 20_000): Promise<void> {
    await expect(this.node(id)).toHaveAttribute('data-status', status, { timeout })
  }

  /** Waits until no node is queued or running and Run can be pressed again. */
  async finished(timeout = 30_000): Promise<void> {
    await expect(this.runButton).toBeEnabled({ timeout })
    await expect(this.page.locator('[data-testid="flow-node"][data-status="running"]')).toHaveCount(0)
    await expect(this.page.locator('[data-testid="flow-node"][data-status="queued"]')).toHaveCount(0)
  }

  /** The run panel's History tab and its saved runs (`run-history-item`), newest first. */
  get historyItems(): Locator {
    return this.page.getByTestId('run-history-item')
  }

  get pastView(): Locator {
    return this.page.getByTestId('run-past-view')
  }

  async openHistory(): Promise<void> {
    await this.page.getByRole('tab', { name: 'History' }).click()
  }

  /** Opens saved run `n` (0 = newest) from the History tab: the canvas shows it read-only. */
  async openPastRun(n = 0): Promise<void> {
    await this.openHistory()
    await this.historyItems.nth(n).getByTestId('run-history-open').click()
    await expect(this.pastView).toBeVisible()
  }

  async backToLive(): Promise<void> {
    await this.page.getByTestId('run-back-to-live').click()
    await expect(this.pastView).toBeHidden()
  }

  /** The node-cached marker of node `id` (its output was pinned or reused, not run again). */
  cached(id: string): Locator {
    return this.node(id).getByTestId('node-cached')
  }

  /**
   * Picks `action` (`run-from-here`, `run-node`, `pin-output`, `unpin-output`) from node `id`'s
   * action menu: through its button (the node must be selected) or its context menu.
   */
  async nodeAction(id: string, action: string, via: 'button' | 'contextMenu' = 'button'): Promise<void> {
    const node = this.node(id)
    if (via === 'contextMenu') await node.click({ button: 'right', position: { x: 12, y: 14 } })
    else await node.getByTestId('node-actions').click()
    const entry = node.getByTestId(action)
    await expect(entry).toBeEnabled()
    await entry.click()
  }

  async consoleText(id: string): Promise<string> {
    const console = this.console(id)
    return (await console.count()) === 0 ? '' : ((await console.textContent()) ?? '')
  }
}
