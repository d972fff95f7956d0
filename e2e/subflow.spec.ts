/**
 * A Sub-flow node (issue 17, item 4): a saved flow is picked in the inspector, its Input keys
 * are mapped and its Output keys shown, the run returns its Output values, and Open opens it.
 */
import { expect, test } from './support/fixtures.ts'
import { readProbes, startProbes } from './support/pageProbes.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('a Sub-flow node runs a saved flow picked in the inspector and shows its output', async ({ app }) => {
  test.setTimeout(120_000)
  const { canvas, inspector, flows, run } = app
  await flows.ready()

  // The called flow: Input (question) -> Output (shout = "{{input.question}}!").
  const subInput = await canvas.addByClick('input')
  const subOutput = await canvas.addByClick('output')
  await canvas.select(subOutput)
  await inspector.shows(subOutput)
  await inspector.typeInto(inspector.recordName('Values', 1), 'shout')
  await inspector.typeInto(inspector.recordValue('Values', 1), `{{${subInput}.question}}!`)
  await canvas.connect(subInput, subOutput)
  const [calledName] = await flows.names()
  if (calledName === undefined) throw new Error('no flow in the list')
  await flows.rename(calledName, 'Shouter')

  // The calling flow: Input (question = tea) -> Sub-flow (Shouter) -> Output.
  await flows.create()
  // Dropped apart in the canvas's own terms, so the flow fits and no node covers a handle.
  const input = await canvas.addAt('input', 0.3, 0.25)
  const call = await canvas.addAt('subflow', 0.5, 0.65)
  const output = await canvas.addAt('output', 0.75, 0.25)
  await canvas.fitView()
  await canvas.connect(input, call)
  await canvas.connect(call, output)
  await expect(canvas.edges).toHaveCount(2)
  await canvas.select(input)
  await inspector.shows(input)
  await inspector.typeInto(inspector.recordValue('Values', 1), 'tea')
  await canvas.select(call)
  await inspector.shows(call)
  await inspector.subflowFlow.selectOption({ label: 'Shouter' })
  await expect(inspector.subflowOutputs).toHaveText('Output fields: shout')
  await inspector.typeInto(inspector.subflowInput('question'), `{{${input}.question}}`)
  await canvas.select(output)
  await inspector.shows(output)
  await inspector.typeInto(inspector.recordValue('Values', 1), `{{${call}.shout}}`)

  await run.start()
  await run.finished()
  await run.expectStatus(call, 'success')
  await run.expectStatus(output, 'success')
  await expect(run.console(output)).toContainText('tea!')

  // Open brings up the called flow itself.
  await canvas.select(call)
  await inspector.shows(call)
  await inspector.subflowOpen.click()
  await expect(flows.current()).toContainText('Shouter')
  await expect(canvas.nodes).toHaveCount(2)
})

test('a sub-flow’s streamed text shows in the calling node’s console while it runs', async ({ app }) => {
  test.setTimeout(120_000)
  const { canvas, inspector, flows, run } = app
  await flows.ready()

  // The called flow: Input (question) -> LLM on the offline demo provider -> Output.
  const question = `Tell me about ${Array.from({ length: 30 }, (_, i) => `tea${i + 1}`).join(' ')} please`
  // Dropped apart in the canvas's own terms, so the flow fits and no node covers a handle.
  const subInput = await canvas.addAt('input', 0.3, 0.25)
  const subLlm = await canvas.addAt('llm', 0.5, 0.65)
  const subOutput = await canvas.addAt('output', 0.75, 0.25)
  await canvas.fitView()
  await canvas.connect(subInput, subLlm)
  await canvas.connect(subLlm, subOutput)
  await canvas.select(subLlm)
  await inspector.shows(subLlm)
  await inspector.field('Prompt').fill(`{{${subInput}.question}}`)
  await canvas.select(subOutput)
  await inspector.shows(subOutput)
  await inspector.typeInto(inspector.recordName('Values', 1), 'answer')
  await inspector.typeInto(inspector.recordValue('Values', 1), `{{${subLlm}.response}}`)
  const [calledName] = await flows.names()
  if (calledName === undefined) throw new Error('no flow in the list')
  await flows.rename(calledName, 'Streamer')

  // The calling flow: Input (question) -> Sub-flow (Streamer) -> Output.
  await flows.create()
  // Dropped apart in the canvas's own terms, so the flow fits and no node covers a handle.
  const input = await canvas.addAt('input', 0.3, 0.25)
  const call = await canvas.addAt('subflow', 0.5, 0.65)
  const output = await canvas.addAt('output', 0.75, 0.25)
  await canvas.fitView()
  await canvas.connect(input, call)
  await canvas.connect(call, output)
  await canvas.select(input)
  await inspector.shows(input)
  await inspector.recordValue('Values', 1).fill(question)
  await canvas.select(call)
  await inspector.shows(call)
  await inspector.subflowFlow.selectOption({ label: 'Streamer' })
  await inspector.typeInto(inspector.subflowInput('question'), `{{${input}.question}}`)
  await canvas.select(output)
  await inspector.shows(output)
  await inspector.typeInto(inspector.recordValue('Values', 1), `{{${call}.answer}}`)
  await canvas.clickEmpty()

  // Sampled inside the page while the calling node runs: its console grows piece by piece.
  await startProbes(app.page, call)
  await run.start()
  await run.finished()
  await run.expectStatus(call, 'success')
  const { lengths } = await readProbes(app.page)
  const growth = lengths.filter((n, i) => i > 0 && n > (lengths[i - 1] ?? 0))
  expect(growth.length, `console lengths while running: ${lengths.join(',')}`).toBeGreaterThanOrEqual(3)
  // The called flow's LLM node is named above its text; its echo of the question is there in full.
  await expect(run.console(call)).toContainText(`› ${subLlm}`)
  await expect(run.console(call)).toContainText('tea30 please')
  await expect(run.console(output)).toContainText('tea30 please')
})

test('the problems list names a circle of sub-flow calls as it is built, before Run', async ({ app }) => {
  test.setTimeout(120_000)
  const { canvas, inspector, flows } = app
  await flows.ready()
  const [first] = await flows.names()
  if (first === undefined) throw new Error('no flow in the list')
  await flows.rename(first, 'Alpha')

  // Beta calls Alpha.
  await flows.create()
  const second = (await flows.names()).find((name) => name !== 'Alpha')
  await flows.rename(second ?? '', 'Beta')
  const back = await canvas.addByClick('subflow')
  await canvas.select(back)
  await inspector.shows(back)
  await inspector.subflowFlow.selectOption({ label: 'Alpha' })

  // In Alpha, a Sub-flow node picked to call Beta closes the circle: the list says so at once.
  await flows.open('Alpha')
  const problems = app.page.getByTestId('problems-list')
  await expect(problems.locator('[data-code="SUBFLOW_RECURSION"]')).toHaveCount(0)
  const call = await canvas.addByClick('subflow')
  await canvas.select(call)
  await inspector.shows(call)
  await inspector.subflowFlow.selectOption({ label: 'Beta' })
  const circle = problems.locator(`[data-code="SUBFLOW_RECURSION"][data-node-id="${call}"]`)
  await expect(circle).toContainText('Alpha -> Beta -> Alpha')
  // Picking no flow again clears it.
  await inspector.subflowFlow.selectOption({ index: 0 })
  await expect(circle).toHaveCount(0)
})
