/**
 * Running flows for real: Input -> Template -> LLM -> Output against the local OpenAI-compatible
 * mock server (text streams into the console), a runaway Code node stopped by the sandbox
 * deadline while the page stays responsive, model text shown inert, and Stop.
 */
import type { WardflowApp } from './pages/WardflowApp.ts'
import { expect, test } from './support/fixtures.ts'
import { MOCK_BASE_URL, MockModel, words } from './support/mockModel.ts'
import { longestFrameGap, readProbes, startProbes, statusAt } from './support/pageProbes.ts'

const API_KEY = 'sk-e2e-mock-0123456789'

interface Chain {
  input: string
  template: string
  llm: string
  output: string
}

let mock: MockModel

test.beforeEach(async ({ app, request }) => {
  mock = new MockModel(request)
  await mock.reset()
  await app.open()
})

/**
 * How far a console's newest text ends below the bottom of the box's content area: 0 when the
 * console shows its newest text, more when the view is above it.
 */
function newestHidden(box: Element): number {
  const content = box.firstElementChild as Element
  const style = getComputedStyle(box)
  const contentBottom =
    box.getBoundingClientRect().bottom - parseFloat(style.borderBottomWidth) - parseFloat(style.paddingBottom)
  return content.getBoundingClientRect().bottom - contentBottom
}

/** Where a console's oldest text is, from its top edge (the padding when scrolled to the top). */
function firstTextOffset(box: Element): number {
  const content = box.firstElementChild as Element
  return content.getBoundingClientRect().top - box.getBoundingClientRect().top
}

/** Settings: an OpenAI-compatible provider at the mock server, made the default. */
async function addMockProvider(app: WardflowApp): Promise<void> {
  await app.settings.open()
  await app.settings.addProvider({
    id: 'mock',
    name: 'Local mock',
    kind: 'openai',
    baseUrl: MOCK_BASE_URL,
    apiKey: API_KEY,
    model: 'mock-model',
  })
  await app.settings.close()
}

/** Builds Input -> Template -> LLM -> Output with the palette, handles and the inspector. */
async function buildChain(app: WardflowApp, question: string): Promise<Chain> {
  const { canvas, inspector } = app
  const input = await canvas.dragFromPalette('input', await canvas.pointAt(0.22, 0.12))
  const template = await canvas.dragFromPalette('template', await canvas.pointAt(0.62, 0.12))
  const llm = await canvas.dragFromPalette('llm', await canvas.pointAt(0.22, 0.42))
  const output = await canvas.dragFromPalette('output', await canvas.pointAt(0.62, 0.42))
  await canvas.connect(input, template)
  await canvas.connect(template, llm)
  await canvas.connect(llm, output)
  await expect(canvas.edges).toHaveCount(3)

  await canvas.select(input)
  await inspector.recordValue('Values', 1).fill(question)
  await canvas.select(template)
  await inspector.field('Template').fill(`Question: {{${input}.question}}`)
  await canvas.select(llm)
  await inspector.field('Prompt').fill(`{{${template}.text}}`)
  await canvas.select(output)
  await inspector.recordValue('Values', 1).fill(`{{${llm}.response}}`)
  await canvas.clickEmpty()
  await expect(app.page.getByRole('region', { name: 'Problems' })).toContainText('No problems')
  return { input, template, llm, output }
}

test('Input -> Template -> LLM -> Output streams the reply into the console', async ({ app }) => {
  const { run } = app
  await addMockProvider(app)
  const chain = await buildChain(app, 'How do rivers form?')
  // About 12 s of streaming: long enough to be sampled many times even on a busy machine, and
  // to scroll the console while it fills.
  const reply = `Rivers form when ${words(120, 'water')} and that is all.`
  await mock.script([{ text: reply, delayMs: 100 }])

  await startProbes(app.page, chain.llm)
  await run.start()

  // Scrolled up to read, the console stays where the person put it while text keeps coming;
  // back at the bottom, it follows the newest text again.
  const box = run.console(chain.llm)
  await expect(box).toHaveAttribute('data-full', '')
  // At least a line more of text each time (a line is ~16 px), so the view had to hold or follow.
  const grown = async () => {
    const before = await box.evaluate((el) => el.scrollHeight)
    await expect.poll(() => box.evaluate((el) => el.scrollHeight)).toBeGreaterThan(before + 12)
  }
  await box.evaluate((el) => el.scrollBy({ top: -el.scrollHeight }))
  const startShown = await box.evaluate(firstTextOffset)
  await grown()
  // Within a pixel and a bit: the browser scrolls in whole pixels, the text's lines are not.
  expect(Math.abs((await box.evaluate(firstTextOffset)) - startShown)).toBeLessThan(1.5)
  await box.evaluate((el) => el.scrollBy({ top: el.scrollHeight }))
  await grown()
  expect(Math.abs(await box.evaluate(newestHidden))).toBeLessThan(1)
  await run.expectStatus(chain.llm, 'success')

  // Visibly streaming: while the node ran, its console grew in many steps, partial text first.
  const { lengths } = await readProbes(app.page)
  const growth = lengths.filter((n, i) => i > 0 && n > (lengths[i - 1] ?? 0))
  expect(growth.length, `console lengths while running: ${lengths.join(',')}`).toBeGreaterThanOrEqual(4)
  expect(
    lengths.some((n) => n > 0 && n < reply.length / 2),
    'a partial reply was visible',
  ).toBe(true)
  await expect(run.console(chain.llm)).toContainText(reply)
  // The reply overflows the console: it keeps its size, contains its layout (so streaming lays
  // out only the console) and shows the newest text.
  await expect(run.console(chain.llm)).toHaveAttribute('data-full', '')
  expect(Math.abs(await run.console(chain.llm).evaluate(newestHidden))).toBeLessThan(1)
  expect(await run.console(chain.llm).evaluate((el) => getComputedStyle(el).contain)).toBe('strict')

  await run.expectStatus(chain.output, 'success')
  await expect(run.console(chain.output)).toContainText(reply)
  await expect(run.result).toContainText(reply)
  for (const id of [chain.input, chain.template]) await run.expectStatus(id, 'success')

  // What the server received: the template filled from the input, streamed, with the key.
  const [sent] = await mock.chatRequests()
  expect(sent?.headers['authorization']).toBe(`Bearer ${API_KEY}`)
  const body = sent?.body as { stream?: boolean; model?: string; messages?: Array<{ content?: unknown }> }
  expect(body.stream).toBe(true)
  expect(body.model).toBe('mock-model')
  expect(JSON.stringify(body.messages)).toContain('Question: How do rivers form?')

  // A rerun empties the console but keeps the box the last reply filled, so the node keeps its
  // size from the click on Run to its end (each change would have React Flow measure the node
  // and redraw its edges).
  const again = `Lakes form when ${words(60, 'rain')} and that is all.`
  await mock.script([{ text: again, delayMs: 20 }])
  // Layout heights (offsetHeight), which the canvas zoom does not scale.
  const height = await run.node(chain.llm).evaluate((node) => {
    const heights: number[] = []
    ;(window as unknown as { llmHeights: number[] }).llmHeights = heights
    new ResizeObserver(() => heights.push((node as HTMLElement).offsetHeight)).observe(node)
    return (node as HTMLElement).offsetHeight
  })
  await run.start()
  await expect(run.console(chain.llm)).not.toContainText('Rivers form')
  await expect(run.console(chain.llm)).toContainText(again)
  await run.expectStatus(chain.llm, 'success')
  await expect(run.console(chain.llm)).toHaveAttribute('data-full', '')
  // Two frames more: a change in the frame that showed success reaches the observer first.
  const heights = await app.page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
    await frame()
    await frame()
    return (window as unknown as { llmHeights: number[] }).llmHeights
  })
  for (const seen of heights) expect(seen, `node heights: ${heights.join(',')}`).toBe(height)
})

test('a model reply with HTML is shown as inert text, as text and as Markdown', async ({ app, page }) => {
  const { run } = app
  await addMockProvider(app)
  const chain = await buildChain(app, 'Say something dangerous')
  const payload =
    'Look: <img src=x onerror="window.__xss=1"> and <script>window.__xss=1</script> and <b onmouseover="window.__xss=1">bold</b> end'
  await mock.script([{ text: payload }])

  await run.start()
  await run.expectStatus(chain.output, 'success')
  await expect(run.console(chain.llm)).toContainText('<img src=x onerror="window.__xss=1">')
  await expect(run.console(chain.llm)).toContainText('<script>window.__xss=1</script>')
  await expect(run.console(chain.output)).toContainText('<img src=x')
  await expect(run.result).toContainText('<script>window.__xss=1</script>')

  const injected = page.locator(
    '[data-testid="node-console"] :is(img, script, b), [data-testid="run-result"] :is(img, script, b)',
  )
  await expect(injected).toHaveCount(0)

  // The result rendered as Markdown goes through the sanitiser: no image, script or handler.
  await run.result.getByRole('button', { name: 'Markdown' }).click()
  await expect(run.result).toContainText('Look:')
  await expect(
    page.locator('[data-testid="run-result"] :is(img, script, [onerror], [onmouseover])'),
  ).toHaveCount(0)

  // The inspector's copy of the node's console and output is text as well.
  await app.canvas.select(chain.llm)
  await expect(app.inspector.root).toContainText('<img src=x onerror="window.__xss=1">')
  await expect(app.inspector.root.locator('img, script')).toHaveCount(0)

  await page.waitForTimeout(300)
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined()
})

test('a Code node with while(true){} stops at the sandbox deadline and the page stays responsive', async ({
  app,
  page,
}) => {
  test.setTimeout(90_000)
  const { canvas, inspector, run } = app
  const wasmRequests: string[] = []
  page.context().on('request', (request) => {
    // The offline service worker's own download of the site is not the sandbox's.
    if (request.url().endsWith('.wasm') && !request.serviceWorker()) wasmRequests.push(request.url())
  })
  const code = await canvas.dragFromPalette('code', await canvas.pointAt(0.3, 0.2))
  const other = await canvas.dragFromPalette('template', await canvas.pointAt(0.6, 0.65))
  await canvas.select(code)
  await inspector.setCode('while(true){}')
  await expect(canvas.node(code)).toContainText('while(true){}')
  await canvas.clickEmpty()

  // Frames, status changes and the dragged node's moves are timed inside the page: a frozen
  // main thread would show as a long gap between animation frames and no movement. The person
  // grabs a node, starts the run with Ctrl+Enter and keeps dragging while the code spins.
  await startProbes(page, code, other)
  const grab = await canvas.grabPoint(other)
  await page.mouse.move(grab.x, grab.y)
  await page.mouse.down()
  await page.mouse.move(grab.x + 10, grab.y - 6, { steps: 2 })
  await page.keyboard.press('ControlOrMeta+Enter')
  for (let i = 1; i <= 8; i += 1) {
    await page.mouse.move(grab.x + 10 + i * 15, grab.y - 6 - i * 10)
    await page.waitForTimeout(200)
  }
  await page.mouse.up()

  await run.expectStatus(code, 'error', 20_000)
  const probes = await readProbes(page)
  const began = statusAt(probes, 'running') ?? NaN
  const failed = statusAt(probes, 'error') ?? NaN
  expect(failed - began, 'stopped at the ~5 s deadline').toBeGreaterThan(4_500)
  expect(failed - began).toBeLessThan(12_000)
  const movedDuringRun = probes.moves.filter((m) => m.at > began && m.at < failed)
  expect(movedDuringRun.length, 'the dragged node followed the pointer while the code ran').toBeGreaterThan(0)
  // A frozen main thread would give no animation frame for the whole 5 s. The bound leaves room
  // for a loaded 2-core machine, where headless Chromium's frames come unevenly (gaps of
  // several hundred ms while the sandbox worker keeps a core busy).
  const frames = probes.frames.filter((t) => t >= began && t <= failed).length
  const gap = longestFrameGap(probes.frames, began, failed)
  expect(
    gap,
    `longest gap between frames (${frames} frames in ${Math.round(failed - began)} ms)`,
  ).toBeLessThan(2_000)
  await expect(run.console(code)).toContainText(/time ?out|timed out|ran (too long|for more than)/i)
  await expect(run.runButton).toBeEnabled()

  // The stopped worker is replaced on the next run; the new worker gets the wasm the page
  // compiled for the first one instead of downloading it again.
  await canvas.select(code)
  await inspector.setCode('return 6 * 7')
  await canvas.clickEmpty()
  await run.start()
  await run.expectStatus(code, 'success', 20_000)
  await expect(run.node(code)).toContainText('42')
  expect(wasmRequests, 'the QuickJS wasm is fetched once per page').toHaveLength(1)
})

test('Stop aborts a slow model stream at once', async ({ app }) => {
  const { run } = app
  await addMockProvider(app)
  const chain = await buildChain(app, 'Talk slowly')
  const reply = words(200, 'slow')
  await mock.script([{ text: reply, delayMs: 150 }])

  await run.start()
  await run.expectStatus(chain.llm, 'running')
  await expect(run.console(chain.llm)).toContainText('slow3')
  await run.stop()
  await run.expectStatus(chain.llm, 'stopped', 5_000)
  await expect(run.runButton).toBeEnabled()
  const atStop = await run.consoleText(chain.llm)
  await app.page.waitForTimeout(1_200)
  expect(await run.consoleText(chain.llm), 'nothing streams in after Stop').toBe(atStop)
  expect(atStop).not.toContain('slow200')
  await expect(run.node(chain.output)).not.toHaveAttribute('data-status', 'success')
})

test.describe('when the provider refuses the key', () => {
  // The server's 401 is the point of this test; Chromium also logs it as a failed resource.
  test.use({ allowedErrors: /HTTP 401 POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions|status of 401/ })

  test('the node fails with words a person can act on, and the key never reaches the page', async ({
    app,
    page,
  }) => {
    const { run } = app
    await addMockProvider(app)
    const chain = await buildChain(app, 'Will this work?')
    // Like OpenAI, the server quotes the key it refused.
    await mock.script([{ status: 401, error: `Incorrect API key provided: ${API_KEY}.` }])

    await run.start()
    await run.expectStatus(chain.llm, 'error')
    await run.finished()
    await expect(run.console(chain.llm)).toContainText(/key/i)
    await expect(page.getByTestId('run-error-summary')).toBeVisible()
    await expect(run.node(chain.output)).not.toHaveAttribute('data-status', 'success')
    expect(await page.content(), 'the key is nowhere in the page').not.toContain(API_KEY)
    await app.canvas.select(chain.llm)
    await expect(app.inspector.root).toContainText(/key/i)
    expect(await page.content()).not.toContain(API_KEY)
  })
})

test('a key the server streams split across two pieces never shows, in the console or the inspector', async ({
  app,
  page,
}) => {
  const { run } = app
  await addMockProvider(app)
  const chain = await buildChain(app, 'Quote my key')
  const cut = 12
  await mock.script([
    { chunks: [`Your key is ${API_KEY.slice(0, cut)}`, `${API_KEY.slice(cut)}, thanks.`], delayMs: 200 },
  ])

  await run.start()
  await run.expectStatus(chain.llm, 'success')
  await run.finished()
  await expect(run.console(chain.llm)).toContainText('Your key is [redacted], thanks.')
  expect(await page.content(), 'the key is nowhere in the page').not.toContain(API_KEY)
  await app.canvas.select(chain.llm)
  await expect(app.inspector.root).toContainText('[redacted]')
  expect(await page.content()).not.toContain(API_KEY)
})
