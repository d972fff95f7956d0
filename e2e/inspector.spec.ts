/**
 * The inspector's inherited settings (issue 16, item 3): a field left empty on a node shows the
 * value it inherits and where from, an override is marked and can be reset, both survive a
 * reload, and the inherited display follows the global setting in Settings.
 */
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

const PROTECTION_FLAGS = ['Loop detection', 'Progress-aware', 'Cycle detection', 'Answer after a stop']

test('a new Agent shows the protection it inherits; an override can be reset, survives a reload and the display follows Settings', async ({
  app,
}) => {
  // Many key presses (and reloads): generous on a busy 2-core machine.
  test.setTimeout(120_000)
  const { canvas, inspector, settings, page } = app
  const agent = await canvas.addByClick('agent')
  await canvas.select(agent)
  await inspector.shows(agent)
  await inspector.openGroup('Runtime protection')

  // Every protection switch is on, as it is globally, and says where that comes from.
  for (const label of PROTECTION_FLAGS) {
    await expect(inspector.field(label), `${label} shows the inherited "on"`).toBeChecked()
  }
  for (const label of ['Loop detection', 'Progress-aware', 'Cycle detection']) {
    await expect(inspector.inheritNote(label)).toHaveText('Inherited: on, from Settings')
    await expect(inspector.resetButton(label)).toHaveCount(0)
  }
  // Answer-after-stop has no global setting: its value is the built-in default.
  await expect(inspector.inheritNote('Answer after a stop')).toHaveText('Inherited: on, built-in default')
  // Numbers too, in the units Settings shows them in.
  await expect(inspector.inheritNote('Code tool timeout')).toHaveText('Inherited: 5 s, from Settings')
  await expect(inspector.inheritNote('Max iterations')).toHaveText('Inherited: 10, from Settings')
  await expect(inspector.inheritNote('Token budget')).toHaveText('Inherited: unlimited, from Settings')

  // One click turns it off on this node: an override, marked, with a way back.
  await inspector.field('Loop detection').click()
  await expect(inspector.field('Loop detection')).not.toBeChecked()
  await expect(inspector.inheritNote('Loop detection')).toHaveText('Set on this node (Settings: on)')
  await expect(inspector.resetButton('Loop detection')).toBeVisible()
  // A number override: typed in seconds, like Settings.
  await inspector.typeInto(inspector.field('Code tool timeout'), '12')
  await expect(inspector.inheritNote('Code tool timeout')).toHaveText('Set on this node (Settings: 5 s)')

  await app.saved()
  await app.reload()
  await canvas.select(agent)
  await inspector.openGroup('Runtime protection')
  await expect(inspector.field('Loop detection')).not.toBeChecked()
  await expect(inspector.inheritNote('Loop detection')).toHaveText('Set on this node (Settings: on)')
  await expect(inspector.field('Code tool timeout')).toHaveValue('12')

  // Reset: back to inheriting, and that survives a reload too.
  await inspector.resetButton('Loop detection').click()
  await expect(inspector.field('Loop detection')).toBeChecked()
  await expect(inspector.inheritNote('Loop detection')).toHaveText('Inherited: on, from Settings')
  await expect(inspector.resetButton('Loop detection')).toHaveCount(0)
  await inspector.resetButton('Code tool timeout').click()
  await expect(inspector.field('Code tool timeout')).toHaveValue('')
  await expect(inspector.inheritNote('Code tool timeout')).toHaveText('Inherited: 5 s, from Settings')
  await app.saved()
  await app.reload()
  await canvas.select(agent)
  await inspector.openGroup('Runtime protection')
  await expect(inspector.field('Loop detection')).toBeChecked()
  await expect(inspector.inheritNote('Loop detection')).toHaveText('Inherited: on, from Settings')

  // The global setting changes: what the node inherits follows at once.
  await settings.open()
  await settings.tab('Runtime protection')
  await page.getByTestId('protection-loopDetectionEnabled').click()
  await page.getByTestId('protection-sandboxTimeoutMs').fill('7')
  await page.getByTestId('protection-save').click()
  await expect(page.getByTestId('protection-status')).toHaveText('Saved.')
  await settings.close()
  await expect(inspector.field('Loop detection')).not.toBeChecked()
  await expect(inspector.inheritNote('Loop detection')).toHaveText('Inherited: off, from Settings')
  await expect(inspector.inheritNote('Code tool timeout')).toHaveText('Inherited: 7 s, from Settings')
})

test('a Code node shows the sandbox timeout it inherits from Settings and can be reset to it', async ({
  app,
}) => {
  const { canvas, inspector } = app
  const code = await canvas.addByClick('code')
  await canvas.select(code)
  await expect(inspector.inheritNote('Timeout')).toHaveText('Inherited: 5 s, from Settings')
  await inspector.typeInto(inspector.field('Timeout'), '2')
  await expect(inspector.inheritNote('Timeout')).toHaveText('Set on this node (Settings: 5 s)')
  await inspector.resetButton('Timeout').click()
  await expect(inspector.inheritNote('Timeout')).toHaveText('Inherited: 5 s, from Settings')
  await expect(inspector.field('Timeout')).toHaveValue('')
})
