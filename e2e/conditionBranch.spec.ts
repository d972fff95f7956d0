/**
 * A branching flow built by hand: Input -> Condition (two cases made in the cases editor) ->
 * two Templates -> Merge. Each run takes one case: its edges light up and the other branch
 * fades with the reason; another Input value swaps them; the first run, opened again from the
 * history, shows its own path.
 */
import type { WardflowApp } from './pages/WardflowApp.ts'
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

const TAKEN = /wf-edge--taken/
const NOT_TAKEN = /wf-edge--not-taken/

async function expectPath(
  app: WardflowApp,
  ids: { route: string; yes: string; no: string; join: string },
  taken: 'yes' | 'no',
): Promise<void> {
  const { canvas, run } = app
  const [on, off] = taken === 'yes' ? [ids.yes, ids.no] : [ids.no, ids.yes]
  await run.expectStatus(on, 'success')
  await run.expectStatus(off, 'skipped')
  await expect(canvas.node(off)).toHaveAttribute('data-skip', 'notTaken')
  await expect(canvas.skipReason(off)).toHaveText(
    new RegExp(`^Not taken: “.+” chose “${taken}”, another branch\\.$`),
  )
  await expect(canvas.skipReason(on)).toHaveCount(0)
  await expect(canvas.edge(ids.route, on)).toHaveClass(TAKEN)
  await expect(canvas.edge(on, ids.join)).toHaveClass(TAKEN)
  await expect(canvas.edge(ids.route, off)).toHaveClass(NOT_TAKEN)
  await expect(canvas.edge(off, ids.join)).not.toHaveClass(TAKEN)
  await run.expectStatus(ids.join, 'success')
}

test('a condition built in the cases editor takes one branch per run, and the history shows each run’s path', async ({
  app,
}) => {
  test.slow()
  const { canvas, inspector, run } = app
  // Room for five nodes side by side (none covering another's handles): zoom out as a person
  // would, with the canvas controls.
  await app.page.getByRole('button', { name: 'Zoom out', exact: true }).click()
  await app.page.getByRole('button', { name: 'Zoom out', exact: true }).click()
  const input = await canvas.dragFromPalette('input', await canvas.pointAt(0.16, 0.3))
  const route = await canvas.dragFromPalette('condition', await canvas.pointAt(0.4, 0.45))
  const yes = await canvas.dragFromPalette('template', await canvas.pointAt(0.64, 0.2))
  const no = await canvas.dragFromPalette('template', await canvas.pointAt(0.64, 0.7))
  const join = await canvas.dragFromPalette('merge', await canvas.pointAt(0.87, 0.45))
  await canvas.connect(input, route)
  await expect(canvas.edge(input, route)).toHaveCount(1)

  await canvas.select(input)
  await inspector.shows(input)
  await inspector.recordValue('Values', 1).fill('yes')

  await canvas.select(route)
  await inspector.shows(route)
  await expect(inspector.conditionPreview).toHaveText(
    "No run yet: run the flow to see which case the last run's values take.",
  )
  const answer = `{{${input}.question}}`
  await inspector.fillCase(1, { id: 'yes', pick: answer, op: 'equals', to: 'yes' })
  await inspector.root.getByRole('button', { name: 'Add case' }).click()
  await expect(inspector.root.getByTestId('condition-case')).toHaveCount(2)
  await inspector.fillCase(2, { id: 'no', pick: answer, op: 'equals', to: 'no' })
  // The node grew a handle per case: wire each case by mouse.
  await expect(canvas.port(route, 'output', 'yes')).toBeVisible()
  await expect(canvas.port(route, 'output', 'no')).toBeVisible()
  await canvas.connectPort(route, 'yes', yes)
  await canvas.connectPort(route, 'no', no)
  await canvas.connect(yes, join)
  await canvas.connect(no, join)
  await expect(canvas.edges).toHaveCount(5)

  await run.start()
  await run.finished()
  await expectPath(app, { route, yes, no, join }, 'yes')
  await canvas.select(route)
  await expect(inspector.conditionPreview).toHaveText("With the last run's values this takes case “yes”.")

  await canvas.select(input)
  await inspector.shows(input)
  await inspector.recordValue('Values', 1).fill('no')
  await run.start()
  await run.finished()
  await expectPath(app, { route, yes, no, join }, 'no')
  await canvas.select(route)
  await expect(inspector.conditionPreview).toHaveText("With the last run's values this takes case “no”.")
  await app.saved()

  // History lists the newest first: the first run is the second entry.
  await run.openPastRun(1)
  await expectPath(app, { route, yes, no, join }, 'yes')
  await run.backToLive()
  await expectPath(app, { route, yes, no, join }, 'no')
})
