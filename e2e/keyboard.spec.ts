/**
 * The editor without a mouse (issue 16, item 11): nodes added from the palette with Enter,
 * reached with Tab, connected through "Connect to…" (arrows and Enter), configured and run, a
 * refused loop explained in the words a drag gets, and a visible focus ring on what has focus,
 * in the light and the dark theme.
 */
import type { Locator, Page } from '@playwright/test'
import type { CanvasPage } from './pages/CanvasPage.ts'
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('Input -> Template -> Output is built, connected, filled in and run with the keyboard only', async ({
  app,
  page,
}) => {
  // Many key presses (and reloads): generous on a busy 2-core machine.
  test.setTimeout(120_000)
  const { canvas, inspector, run } = app
  // Palette entries by Tab and Enter; each Enter adds the node in the middle of the view.
  await canvas.tabTo(canvas.paletteItem('input'))
  await page.keyboard.press('Enter')
  await expect(canvas.node('input_1')).toBeVisible()
  await canvas.tabTo(canvas.paletteItem('template'))
  await page.keyboard.press('Enter')
  await expect(canvas.node('template_1')).toBeVisible()
  await canvas.tabTo(canvas.paletteItem('output'))
  await page.keyboard.press('Enter')
  await expect(canvas.node('output_1')).toBeVisible()

  // Input offers Template and Output (it has no input itself, so it is not listed).
  await canvas.tabTo(canvas.nodeFrame('input_1'))
  await page.keyboard.press('Enter')
  await page.keyboard.press('c')
  await expect(canvas.connectDialog).toBeVisible()
  const targets = canvas.connectDialog.getByRole('option')
  await expect(targets).toHaveCount(2)
  await expect(canvas.connectDialog.getByRole('listbox')).toBeFocused()
  await canvas.chooseTarget('template_1')
  await page.keyboard.press('Enter')
  await expect(canvas.connectDialog).toBeHidden()
  await expect(canvas.edge('input_1', 'template_1')).toHaveCount(1)
  // Focus is back on the node it started from, so Tab goes on from there.
  await expect(canvas.nodeFrame('input_1')).toBeFocused()

  await canvas.connectByKeyboard('template_1', 'output_1')
  await expect(canvas.connectDialog).toBeHidden()
  await expect(canvas.edge('template_1', 'output_1')).toHaveCount(1)
  await expect(canvas.edges).toHaveCount(2)

  // Fill the nodes in from the inspector, reached with Tab.
  await selectByKeyboard(app.canvas, page, 'input_1', true)
  await inspector.shows('input_1')
  await canvas.tabTo(inspector.recordValue('Values', 1))
  await page.keyboard.type('sky')
  await selectByKeyboard(app.canvas, page, 'template_1', true)
  await inspector.shows('template_1')
  // Connecting filled the reference in (as a drag does); the text around it is typed.
  await expect(inspector.field('Template')).toHaveValue('{{input_1.question}}')
  await canvas.tabTo(inspector.field('Template'))
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type('Why is the {{input_1.question}} blue?')
  await selectByKeyboard(app.canvas, page, 'output_1', true)
  await inspector.shows('output_1')
  await expect(inspector.recordValue('Values', 1)).toHaveValue('{{template_1.text}}')

  await page.keyboard.press('ControlOrMeta+Enter')
  await run.expectStatus('output_1', 'success')
  await expect(run.result).toContainText('Why is the sky blue?')
})

test('a loop chosen in "Connect to…" is refused with the reason a drag gets; Esc closes the list', async ({
  app,
  page,
}) => {
  // Many key presses (and reloads): generous on a busy 2-core machine.
  test.setTimeout(120_000)
  const { canvas } = app
  const a = await canvas.addByKeyboard('template')
  const b = await canvas.addByKeyboard('llm')
  await canvas.connectByKeyboard(a, b)
  await expect(canvas.edge(a, b)).toHaveCount(1)

  // The same loop made by dragging, for the reason a person sees there.
  await canvas.connect(b, a)
  await expect(canvas.notes).toContainText('would create a loop')
  const dragReason =
    (await canvas.notes
      .getByText(/would create a loop/)
      .last()
      .textContent()) ?? ''
  expect(dragReason).not.toBe('')

  await canvas.connectByKeyboard(b, a)
  const refusal = canvas.connectDialog.getByRole('alert')
  await expect(refusal).toHaveText(dragReason)
  await expect(canvas.edges).toHaveCount(1)
  // The list stays open to choose another target; Esc closes it and gives the node its focus back.
  await expect(canvas.connectDialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(canvas.connectDialog).toBeHidden()
  await expect(canvas.nodeFrame(b)).toBeFocused()
  await expect(canvas.edge(b, a)).toHaveCount(0)
})

/** Focuses a node with Tab (Shift+Tab when coming back from the inspector) and selects it with Enter. */
async function selectByKeyboard(canvas: CanvasPage, page: Page, id: string, back: boolean): Promise<void> {
  await canvas.tabTo(canvas.nodeFrame(id), { back })
  await page.keyboard.press('Enter')
  await expect(page.locator(`[data-testid="flow-node"][data-node-id="${id}"]`)).toHaveAttribute(
    'data-selected',
    'true',
  )
}

/** The focus outline the element shows now: its style and width in px. */
async function outlineOf(target: Locator): Promise<{ style: string; width: number }> {
  return target.evaluate((el) => {
    const style = getComputedStyle(el)
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) }
  })
}

for (const theme of ['light', 'dark'] as const) {
  test(`what has the keyboard focus shows a focus ring (${theme} theme)`, async ({ app, page }) => {
    // Many key presses (and reloads): generous on a busy 2-core machine.
    test.setTimeout(120_000)
    const { canvas, inspector } = app
    const toggle = page.getByTestId('toggle-theme')
    if ((await page.locator('html').getAttribute('data-theme')) !== theme) await toggle.click()
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)

    const agent = await canvas.addByKeyboard('agent')
    const expectRing = async (what: string, target: Locator): Promise<void> => {
      await expect(target).toBeFocused()
      const outline = await outlineOf(target)
      expect(outline.style, `${what} has an outline when focused`).not.toBe('none')
      expect(outline.width, `${what}'s outline is at least 2 px wide`).toBeGreaterThanOrEqual(2)
    }
    // Forward from the palette: the node, then its inspector (the group opened with Enter).
    await canvas.tabTo(canvas.nodeFrame(agent))
    await expectRing('a node', canvas.nodeFrame(agent))
    await page.keyboard.press('Enter')
    await inspector.shows(agent)
    await canvas.tabTo(inspector.root.getByRole('button', { name: 'Duplicate node' }))
    await expectRing('an inspector button', inspector.root.getByRole('button', { name: 'Duplicate node' }))
    await canvas.tabTo(inspector.title)
    await expectRing('a text input', inspector.title)
    await canvas.tabTo(inspector.root.locator('summary', { hasText: 'Runtime protection' }))
    await page.keyboard.press('Enter')
    await canvas.tabTo(inspector.field('Max iterations'))
    await expectRing('a number input', inspector.field('Max iterations'))
    await canvas.tabTo(inspector.field('Loop detection'))
    await expectRing('a checkbox', inspector.field('Loop detection'))
    // Back to the palette and the toolbar.
    await canvas.tabTo(canvas.paletteItem('llm'), { back: true })
    await expectRing('a palette entry', canvas.paletteItem('llm'))
    await canvas.tabTo(page.getByTestId('run-flow'), { back: true })
    await expectRing('a toolbar button', page.getByTestId('run-flow'))
  })
}
