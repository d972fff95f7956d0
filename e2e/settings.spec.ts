/**
 * Files in and out through the UI: workflow export and re-import, both settings exports (the
 * sanitized one carries no key; the full one needs its passphrase), the danger zone's typed
 * phrases in English and Chinese, refused files that change nothing, and a PatchCat import.
 */
import { readFileSync } from 'node:fs'
import type { Locator } from '@playwright/test'
import { jsonFile } from './support/files.ts'
import { expect, test } from './support/fixtures.ts'

const PLANTED_KEY = 'sk-e2e-PLANTED-9f8e7d6c5b4a3210fedcba'
const PLANTED_HEADER = 'Bearer e2e-PLANTED-header-7c6b5a49'
const PASSPHRASE = 'correct horse battery staple'

test.beforeEach(async ({ app }) => {
  await app.open()
})

interface WorkflowFile {
  format: string
  metadata: { id: string; name: string }
  nodes: Array<{
    id: string
    type: string
    position: unknown
    data: { label: string; config: Record<string, unknown> }
  }>
  edges: Array<{ id: string; source: string; target: string }>
}

test('a workflow exported and imported again comes back identical', async ({ app }) => {
  const { templates, canvas, flows, inspector } = app
  await templates.loopBreakerButton().click()
  await expect(canvas.node('agent')).toBeVisible()
  const labels = await canvas.nodes.locator('.wf-node__title').allTextContents()
  await canvas.select('question')
  const question = await inspector.recordValue('Values', 1).inputValue()
  expect(question).not.toBe('')

  const exported = await app.exportWorkflow()
  expect(exported.name).toMatch(/\.wardflow\.json$/)
  const first = JSON.parse(exported.text) as WorkflowFile
  expect(first.format).toBe('wardflow.workflow')
  const flowCount = await flows.items.count()

  // Same flow id as the saved flow: the app asks; import as a copy.
  await app.importWorkflow(jsonFile(exported.name, exported.text))
  const conflict = app.page.getByRole('dialog', { name: 'This flow is already saved' })
  await expect(conflict).toBeVisible()
  await conflict.getByRole('button', { name: 'Import as copy' }).click()
  await expect(flows.items).toHaveCount(flowCount + 1)
  await expect(flows.current()).toContainText(`${first.metadata.name} (copy)`)

  await expect(canvas.nodes).toHaveCount(first.nodes.length)
  expect((await canvas.nodes.locator('.wf-node__title').allTextContents()).sort()).toEqual(labels.sort())
  await canvas.select('question')
  await expect(inspector.recordValue('Values', 1)).toHaveValue(question)

  // Exporting the copy gives the same nodes and edges (only the flow's identity differs).
  const again = JSON.parse((await app.exportWorkflow()).text) as WorkflowFile
  expect(again.metadata.id).not.toBe(first.metadata.id)
  expect(again.nodes).toEqual(first.nodes)
  expect(again.edges).toEqual(first.edges)
})

test('settings exports: the sanitized file holds no key; the full one restores it with the right passphrase only', async ({
  app,
  page,
}) => {
  const { settings } = app
  await settings.open()
  await settings.addProvider(
    {
      id: 'planted',
      kind: 'openai',
      baseUrl: 'https://api.example.test/v1',
      apiKey: PLANTED_KEY,
      model: 'm-1',
      headers: [['Authorization', PLANTED_HEADER]],
    },
    false,
  )
  await expect(settings.providerItem('planted')).toContainText('key stored')
  await expect(settings.dialog).not.toContainText(PLANTED_KEY)

  const sanitized = await settings.exportSanitized()
  expect(sanitized.text).not.toContain(PLANTED_KEY)
  expect(sanitized.text).not.toContain('PLANTED')
  const sanitizedJson = JSON.parse(sanitized.text) as { kind: string; redacted: string[] }
  expect(sanitizedJson.kind).toBe('sanitized')
  expect(sanitizedJson.redacted.length).toBeGreaterThanOrEqual(2)

  const full = await settings.exportFull(PASSPHRASE)
  expect(full.text).not.toContain('PLANTED')
  expect((JSON.parse(full.text) as { kind: string }).kind).toBe('full')

  await settings.removeProvider('planted')

  // Wrong passphrase: the dialog says so and nothing changes.
  await settings.importFile(jsonFile(full.name, full.text))
  const prompt = settings.passphraseDialog()
  await expect(prompt).toBeVisible()
  await prompt.getByLabel('Passphrase', { exact: true }).fill('not the passphrase')
  await prompt.getByRole('button', { name: 'Import' }).click()
  await expect(prompt.getByRole('alert')).toContainText('wrong')
  await prompt.getByRole('button', { name: 'Cancel' }).click()
  await expect(prompt).toBeHidden()
  await expect(settings.providerItem('planted')).toHaveCount(0)

  // Right passphrase: the provider and its key are back.
  await settings.importFile(jsonFile(full.name, full.text))
  await expect(prompt).toBeVisible()
  await prompt.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE)
  await prompt.getByRole('button', { name: 'Import' }).click()
  await expect(prompt).toBeHidden()
  await expect(settings.dialog).toContainText('Settings and keys imported.')
  await settings.tab('Providers')
  await expect(settings.providerItem('planted')).toContainText('key stored')
  await settings.providerItem('planted').getByRole('button', { name: 'Edit' }).click()
  const form = page.getByTestId('provider-form')
  await expect(form.getByLabel('API key', { exact: true })).toHaveValue(PLANTED_KEY)
  await expect(form.getByLabel('API key', { exact: true })).toHaveAttribute('type', 'password')
  await expect(form.getByLabel('Header 1 value', { exact: true })).toHaveValue(PLANTED_HEADER)
  expect(await page.content()).not.toContain(PLANTED_KEY)
})

/** Types into the danger dialog's phrase input, replacing what was there. */
async function typePhrase(dialog: Locator, text: string): Promise<void> {
  await dialog.getByTestId('danger-confirm-input').fill(text)
}

test('danger zone: the exact phrase of the UI language unlocks each action; Esc cancels', async ({
  app,
  page,
}) => {
  const { settings, flows } = app
  await flows.create()
  await expect(flows.items).toHaveCount(2)
  await settings.open()

  // English: near misses keep the button disabled; Esc cancels without doing anything.
  let dialog = await settings.openDanger('clear-cache')
  const confirm = dialog.getByTestId('danger-confirm-button')
  await expect(confirm).toBeDisabled()
  for (const miss of ['clear cache', 'CLEAR CACHE ', ' CLEAR CACHE', '清空缓存']) {
    await typePhrase(dialog, miss)
    await expect(confirm).toBeDisabled()
  }
  await typePhrase(dialog, 'CLEAR CACHE')
  await expect(confirm).toBeEnabled()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(settings.dialog).toBeVisible()

  dialog = await settings.openDanger('delete-all-flows')
  await typePhrase(dialog, 'delete all flows')
  await expect(dialog.getByTestId('danger-confirm-button')).toBeDisabled()
  await typePhrase(dialog, 'DELETE ALL FLOWS')
  await expect(dialog.getByTestId('danger-confirm-button')).toBeEnabled()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await settings.close()
  await expect(flows.items).toHaveCount(2)

  // Chinese: the English phrase no longer works; the Chinese one does.
  await app.setLanguage('zh-CN')
  await settings.open()
  dialog = await settings.openDanger('clear-cache', '危险操作')
  await typePhrase(dialog, 'CLEAR CACHE')
  await expect(dialog.getByTestId('danger-confirm-button')).toBeDisabled()
  await typePhrase(dialog, '清空缓存')
  await expect(dialog.getByTestId('danger-confirm-button')).toBeEnabled()
  await dialog.getByTestId('danger-confirm-button').click()
  await expect(dialog).toBeHidden()
  await expect(flows.items).toHaveCount(2)

  dialog = await settings.openDanger('delete-all-flows', '危险操作')
  await typePhrase(dialog, 'DELETE ALL FLOWS')
  await expect(dialog.getByTestId('danger-confirm-button')).toBeDisabled()
  await typePhrase(dialog, '删除所有工作流')
  await expect(dialog.getByTestId('danger-confirm-button')).toBeEnabled()
  await dialog.getByTestId('danger-confirm-button').click()
  await expect(dialog).toBeHidden()
  await page.keyboard.press('Escape')
  await expect(settings.dialog).toBeHidden()
  // Every flow is gone; at most one fresh, empty flow is open.
  await expect(flows.items).toHaveCount(1)
  await expect(app.canvas.nodes).toHaveCount(0)
})

test('a malformed workflow file shows the error banner with the JSON path and changes nothing', async ({
  app,
}) => {
  const { flows, canvas, templates } = app
  await templates.loopBreakerButton().click()
  await expect(canvas.node('agent')).toBeVisible()
  const good = JSON.parse((await app.exportWorkflow()).text) as WorkflowFile
  const names = await flows.names()
  const nodeCount = await canvas.nodes.count()

  // Not JSON at all.
  await app.importWorkflow(jsonFile('broken.wardflow.json', '{ "format": "wardflow.workflow", "nodes": [ {'))
  await expect(app.errorBanner).toBeVisible()
  await expect(app.errorBanner).toHaveAttribute('role', 'alert')
  await expect(app.errorBanner).toContainText(/line 1, column \d+/)
  expect(await flows.names()).toEqual(names)
  await expect(canvas.nodes).toHaveCount(nodeCount)
  await app.errorBanner.getByRole('button', { name: 'Dismiss message' }).click()
  await expect(app.errorBanner).toBeHidden()

  // Valid JSON, but the second node has no usable position.
  const bad = structuredClone(good)
  const second = bad.nodes[1]
  if (!second) throw new Error('the template has a second node')
  second.position = 'somewhere'
  await app.importWorkflow(jsonFile('bad-node.wardflow.json', bad))
  await expect(app.errorBanner).toBeVisible()
  await expect(app.errorBanner).toContainText('nodes[1].position')
  expect(await flows.names()).toEqual(names)
  await expect(canvas.nodes).toHaveCount(nodeCount)
  await expect(app.page.getByRole('dialog')).toHaveCount(0)
})

test('a workflow file dropped on the canvas is imported as a new flow', async ({ app, page }) => {
  const { canvas, flows, templates } = app
  await templates.loopBreakerButton().click()
  await expect(canvas.node('agent')).toBeVisible()
  const exported = JSON.parse((await app.exportWorkflow()).text) as WorkflowFile
  // A different flow id, so the drop makes a new flow without asking.
  const file = { ...exported, metadata: { ...exported.metadata, id: 'dropped-flow', name: 'Dropped in' } }
  await flows.create()
  const count = await flows.items.count()

  // What the browser hands the page when a file from the desktop is dropped on it.
  const dataTransfer = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer()
    transfer.items.add(new File([text], 'dropped.wardflow.json', { type: 'application/json' }))
    return transfer
  }, JSON.stringify(file))
  const at = await canvas.pointAt(0.3, 0.2)
  const box = await canvas.box()
  const position = { x: at.x - box.x, y: at.y - box.y }
  for (const type of ['dragenter', 'dragover', 'drop'])
    await canvas.surface.dispatchEvent(type, { dataTransfer, clientX: at.x, clientY: at.y, position })

  await expect(flows.items).toHaveCount(count + 1)
  await expect(flows.current()).toContainText('Dropped in')
  await expect(canvas.nodes).toHaveCount(exported.nodes.length)
  await expect(canvas.node('agent')).toBeVisible()
})

test('a PatchCat workflow imports, with an unsupported node kept as a placeholder', async ({ app }) => {
  const { canvas, flows } = app
  const text = readFileSync(new URL('./fixtures/patchcat-small.json', import.meta.url), 'utf8')
  const before = await flows.items.count()
  await app.importWorkflow(jsonFile('patchcat-small.json', text))

  await expect(flows.current()).toContainText('PatchCat ticket router (e2e)')
  expect(await flows.items.count()).toBeGreaterThanOrEqual(before)
  await expect(canvas.nodes).toHaveCount(4)
  await expect(canvas.nodesOfType('input')).toHaveCount(1)
  await expect(canvas.nodesOfType('template')).toHaveCount(1)
  await expect(canvas.nodesOfType('output')).toHaveCount(1)
  const placeholder = canvas.nodesOfType('unsupported')
  await expect(placeholder).toHaveCount(1)
  await expect(placeholder).toContainText('webhook')
  await expect(canvas.edges).toHaveCount(3)

  const report = app.page.getByTestId('import-report')
  await expect(report).toBeVisible()
  await expect(report).toContainText('webhook')

  // The prompt became a template with its text; the output reads the template's new field.
  await canvas.select('reply_prompt')
  await expect(app.inspector.field('Template')).toHaveValue(
    'Answer this billing question politely: {{ticket.message}}',
  )
  await canvas.select('result')
  await expect(app.inspector.recordValue('Values', 1)).toHaveValue('{{reply_prompt.text}}')

  // Run is refused with a banner that names the placeholder; nothing runs.
  await app.run.start()
  await expect(app.errorBanner).toBeVisible()
  await expect(app.errorBanner).toContainText('webhook')
  await expect(app.page.locator('[data-testid="flow-node"]:not([data-status="idle"])')).toHaveCount(0)
})
