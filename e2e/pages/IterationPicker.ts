import { expect, type Locator, type Page } from '@playwright/test'

/**
 * The iteration picker in the selected node's run details (a loop's, or a loop body node's):
 * "Iteration 2 of 3" with previous / next (`loop-iteration-*` ids, e2e/README.md).
 */
export class IterationPicker {
  readonly root: Locator
  readonly position: Locator
  readonly prev: Locator
  readonly next: Locator
  /** The picked iteration (`data-iteration`, `data-key`). */
  readonly current: Locator

  constructor(readonly page: Page) {
    this.root = page.getByTestId('loop-iterations')
    this.position = page.getByTestId('loop-iteration-index')
    this.prev = page.getByTestId('loop-iteration-prev')
    this.next = page.getByTestId('loop-iteration-next')
    this.current = page.getByTestId('loop-iteration')
  }

  /** A body node's row in a loop's picker. */
  bodyNode(id: string): Locator {
    return this.current.locator(`[data-testid="loop-iteration-node"][data-node-id="${id}"]`)
  }

  async shows(index: number, count: number): Promise<void> {
    await expect(this.position).toHaveText(`Iteration ${index} of ${count}`)
  }
}
