// What the degenerate-text detector (src/engine/textLoop) costs the page (issue 20): the stream
// bench's run (20,000 tokens at about 1,000 a second into an LLM node, the mock server reporting
// no usage) with the detector off and on, alternating in one page so both share the machine's
// noise, and the renderer main thread's CPU time of each run from a Chrome trace (the sum of its
// outermost slices from the click on Run until the run has ended, as in trace.mjs). The detector
// is switched the way a person does it: the "Repetitive text guard" switch in Settings >
// Runtime protection, which every LLM node without its own choice inherits (the bench's node has
// none). The stream's tokens are all distinct, so the detector watches every chunk and never trips.
import { fileInput, openApp } from './pages.mjs'
import { llmWorkflow, startMock } from './mock.mjs'
import { median } from './probes.mjs'
import { addProvider, PACED_DELAY_MS, STREAM_TOKENS, tokens, yieldToBrowser } from './stream.mjs'
import { startCpuTrace, stopCpuTrace } from './trace.mjs'

/** Issue 20: the detector may add at most 5 % to the run's main-thread CPU time. */
const MAX_RATIO = 1.05

/** Sets the global "Repetitive text guard" switch through the settings dialog and saves. */
async function setDetector(page, on) {
  await page.getByTestId('open-settings').click()
  const dialog = page.getByTestId('settings-dialog')
  await dialog.getByRole('tab', { name: 'Runtime protection', exact: true }).click()
  const toggle = dialog.getByTestId('protection-textLoopDetection')
  await toggle.setChecked(on)
  await dialog.getByTestId('protection-save').click()
  await dialog.getByTestId('protection-status').getByText('Saved').waitFor()
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
}

/** One paced run; resolves to the main thread's CPU time (ms) from the click to the run's end. */
async function cpuOfRun(page, mock, tag) {
  const marker = `END-OF-STREAM-${tag}`
  await mock.script({ replies: [{ chunks: tokens(marker), delayMs: PACED_DELAY_MS, usage: null }] })
  await page.evaluate((m) => window.__bench.watchMarker(m), marker)
  await startCpuTrace(page)
  const clicked = await page.evaluate(() => performance.now())
  await page.getByTestId('run-flow').click()
  await page.evaluate(() => window.__bench.marker)
  await page.locator('[data-testid="flow-node"][data-node-id="writer"][data-status="success"]').waitFor()
  await page.getByTestId('run-flow').and(page.locator(':enabled')).waitFor()
  const ended = await page.evaluate(() => window.__bench.afterPaint())
  const cpuMs = await stopCpuTrace(page, clicked, ended)
  const text = await page.getByTestId('node-console').first().textContent()
  if (!text?.includes(marker)) throw new Error('the last token is not in the node console')
  // Progress on stderr: a run takes about 20 s, the whole figure minutes.
  console.error(`  detector ${tag}: ${cpuMs.toFixed(0)} ms CPU, ${(ended - clicked).toFixed(0)} ms wall`)
  return { cpuMs, wallMs: ended - clicked }
}

export async function measureDetectorCost(browser, urls, reps) {
  const restorePriority = yieldToBrowser()
  const mock = await startMock()
  const { context, page, errors } = await openApp(browser, urls.app)
  try {
    await addProvider(page, mock.baseUrl)
    await fileInput(page, 'app').setInputFiles({
      name: 'detector.wardflow.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(llmWorkflow('bench-detector', 'mock'))),
    })
    await page.locator('[data-testid="flow-node"][data-node-id="writer"]').waitFor()
    // A first run loads the tokenizer and the run's other lazy parts: not counted for either side.
    await cpuOfRun(page, mock, 'warm-up')
    const runs = { off: [], on: [] }
    const rounds = Math.max(3, reps)
    for (let round = 0; round < rounds; round += 1) {
      // ABBA order: neither side always runs first after the other.
      for (const side of round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
        await setDetector(page, side === 'on')
        runs[side].push(await cpuOfRun(page, mock, `${side}-${round}`))
      }
    }
    await setDetector(page, true)
    if (errors.length > 0) console.error('detector page errors:', errors)
    const list = (rs) =>
      rs.map((r) => `${r.cpuMs.toFixed(0)} ms CPU / ${r.wallMs.toFixed(0)} ms wall`).join(', ')
    console.error(
      [
        'detector cost runs (click on Run -> run ended):',
        `  off: ${list(runs.off)}`,
        `  on:  ${list(runs.on)}`,
      ].join('\n'),
    )
    const on = median(runs.on.map((r) => r.cpuMs))
    const off = median(runs.off.map((r) => r.cpuMs))
    const name = `degenerate-text detector on vs off, stream ${STREAM_TOKENS.toLocaleString('en')} tokens at ~1,000/s`
    return [
      [
        `${name}: main-thread CPU, click -> run ended (median of ${rounds} runs each; bare = detector off)`,
        on,
        off,
        'ms',
        `<= ${MAX_RATIO.toFixed(2)}x off`,
        on <= MAX_RATIO * off,
      ],
    ]
  } finally {
    await context.close()
    mock.close()
    restorePriority()
  }
}
