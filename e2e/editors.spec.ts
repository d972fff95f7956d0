/**
 * Typing, key by key, into every kind of editor and text field: the Code node's Monaco editor,
 * every "Open in code editor" field, the JSON editors, the Agent tool's code, and the plain
 * inputs and text areas. A space typed in any of them is a space in the flow, never a pan of
 * the canvas behind it (React Flow pans while Space is held, unless the key belongs to a field).
 */
import type { Locator } from '@playwright/test'
import type { WardflowApp } from './pages/WardflowApp.ts'
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

/** Adds a node by a palette click (which selects it) and waits for its inspector. */
async function addAndSelect(app: WardflowApp, type: string): Promise<string> {
  const id = await app.canvas.addByClick(type)
  await app.inspector.shows(id)
  return id
}

/** Opens Monaco for a text field ("Open in code editor"), types, and checks what was stored. */
async function typeInOpenedEditor(app: WardflowApp, label: string, text: string): Promise<void> {
  const { inspector } = app
  const box = inspector.fieldBox(label)
  await box.getByRole('button', { name: 'Open in code editor' }).click()
  await inspector.typeInEditor(box, text)
  await expect.poll(() => inspector.editorText(box), { message: `${label} in Monaco` }).toBe(text)
  // Back to the plain text area: it shows the stored value.
  await box.getByRole('button', { name: 'Back to plain text' }).click()
  await expect(box.locator('textarea')).toHaveValue(text)
}

async function typeInField(field: Locator, text: string): Promise<void> {
  await field.click()
  await field.press('ControlOrMeta+A')
  await field.press('Delete')
  await field.page().keyboard.type(text, { delay: 5 })
}

test('typing "return inputs" in the Code node editor stores the space', async ({ app }) => {
  const { canvas, inspector } = app
  const id = await addAndSelect(app, 'code')
  const box = inspector.fieldBox('Code')
  const before = await canvas.viewport()
  await inspector.typeInEditor(box, 'return inputs')
  await expect.poll(() => inspector.editorText(box)).toBe('return inputs')
  // The node's summary is its first line of code, read from the stored config.
  await expect(canvas.node(id)).toContainText('return inputs')
  expect(await canvas.viewport(), 'the canvas did not pan while typing').toEqual(before)
  await app.saved()
  await app.reload()
  await canvas.select(id)
  await expect.poll(() => inspector.editorText(inspector.fieldBox('Code'))).toBe('return inputs')
})

test('every "Open in code editor" field keeps typed spaces', async ({ app }) => {
  await addAndSelect(app, 'template')
  await typeInOpenedEditor(app, 'Template', 'Dear reader, here is the news')
  await addAndSelect(app, 'llm')
  await typeInOpenedEditor(app, 'System prompt', 'You are a careful editor')
  await typeInOpenedEditor(app, 'Prompt', 'Summarise this in two lines')
  await addAndSelect(app, 'http')
  await typeInOpenedEditor(app, 'Body', 'plain body with spaces')
  await addAndSelect(app, 'note')
  await typeInOpenedEditor(app, 'Text', 'a note with spaces')
})

test('the Agent tool code and JSON editors keep typed spaces', async ({ app }) => {
  const { inspector } = app
  await addAndSelect(app, 'agent')
  await typeInOpenedEditor(app, 'Prompt', 'Find the order and report')
  await inspector.root.getByTestId('add-tool').click()
  const tool = inspector.root.getByTestId('tool-card')
  const description = tool.getByLabel(/^Description/)
  await typeInField(description, 'Looks up one order by its id')
  await expect(description).toHaveValue('Looks up one order by its id')
  const code = tool.locator('.wf-code[data-language="javascript"]')
  await inspector.typeInEditor(code, 'const answer = 6 * 7')
  await expect.poll(() => inspector.editorText(code)).toBe('const answer = 6 * 7')
  // JSON: Monaco closes quotes and braces itself; typing over them gives the same text.
  const params = tool.locator('.wf-code[data-language="json"]')
  const schema = '{ "type": "object", "title": "two words" }'
  await inspector.typeInEditor(params, schema)
  await expect.poll(() => inspector.editorText(params)).toBe(schema)
})

test('plain inputs, text areas, a node title and the flow name keep typed spaces', async ({ app, page }) => {
  const { canvas, inspector } = app
  const id = await addAndSelect(app, 'template')
  await typeInField(inspector.title, 'My first template')
  await expect(inspector.title).toHaveValue('My first template')
  const text = inspector.fieldBox('Template').locator('textarea')
  await typeInField(text, 'hello there world')
  await expect(text).toHaveValue('hello there world')
  await expect(canvas.node(id)).toContainText('My first template')

  // The title on the node itself: double-click, type, Enter.
  await canvas.node(id).getByText('My first template', { exact: true }).dblclick()
  const rename = canvas.node(id).getByRole('textbox')
  await rename.press('ControlOrMeta+A')
  await page.keyboard.type('Renamed on the canvas', { delay: 5 })
  await page.keyboard.press('Enter')
  await expect(canvas.node(id)).toContainText('Renamed on the canvas')

  const flowName = page.getByRole('textbox', { name: 'Flow name' })
  await typeInField(flowName, 'My news flow')
  await page.keyboard.press('Enter')
  await expect(app.flows.current()).toContainText('My news flow')
})

test('Escape, then Tab, leaves the Code node editor; Tab alone indents', async ({ app, page }) => {
  const { inspector } = app
  await addAndSelect(app, 'code')
  const box = inspector.fieldBox('Code')
  await inspector.typeInEditor(box, 'x')
  const inEditor = () => box.evaluate((el) => el.contains(document.activeElement))
  // Tab alone is the editor's: it indents and keeps the focus.
  await page.keyboard.press('Tab')
  expect(await inEditor(), 'Tab alone stays in the editor').toBe(true)
  // (To the next tab stop: one space after "x" at a tab size of 2.)
  await expect.poll(() => inspector.editorText(box)).toBe('x ')
  await page.keyboard.press('Escape')
  await page.keyboard.press('Tab')
  await expect.poll(inEditor, { message: 'focus left the editor' }).toBe(false)
  expect(await inspector.editorText(box), 'the Tab that left typed nothing').toBe('x ')
  // A hint says how to leave while the editor has the focus (and only then).
  const hint = box.getByTestId('editor-tab-hint')
  await expect(hint).toBeHidden()
  // Back in the editor, Tab indents again (leaving is for one Tab only).
  await box.locator('.monaco-editor .view-lines').click()
  await expect(hint).toBeVisible()
  await expect(hint).toHaveText('Esc, then Tab: leave the editor')
  await page.keyboard.press('End')
  await page.keyboard.press('Tab')
  expect(await inEditor()).toBe(true)
  // Shift+Tab after Escape leaves backwards.
  await page.keyboard.press('Escape')
  await page.keyboard.press('Shift+Tab')
  await expect.poll(inEditor, { message: 'Shift+Tab left the editor' }).toBe(false)
})
