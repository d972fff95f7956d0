/**
 * The debugging loop (issue 19) in Chromium: edit one prompt of a template and run from there
 * (only that prompt and what depends on it run, the rest shows node-cached); pin a node's output
 * and run (the pin is used, and it survives a reload); reload in the middle of a run and find the
 * run in History as interrupted, with what finished, and continue it from a node; download a past
 * run's trace and its cassette (which `wardflow test` replays beside the flow's export).
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { downloadOf } from './support/files.ts'
import { expect, test } from './support/fixtures.ts'
import { mockBaseUrl, MOCK_PORTS, MockModel, words } from './support/mockModel.ts'

const UPSTREAM = ['brief', 'draft_prompt', 'draft', 'critique_prompt', 'critique']
const DOWNSTREAM = ['polish_prompt', 'polish', 'result']

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('edit the last prompt and run from here: only it and what follows run, the rest is cached', async ({
  app,
}) => {
  test.slow()
  const { templates, run, canvas, inspector } = app
  await templates.open()
  await templates.openTemplate('llm-chain')
  await run.start()
  await run.finished(45_000)
  await run.expectStatus('result', 'success')
  const critique = await run.consoleText('critique')
  expect(critique).not.toBe('')

  await canvas.select('polish_prompt')
  await inspector.shows('polish_prompt')
  await inspector.typeInto(inspector.field('Template'), 'Say it in one short sentence.')
  await app.saved()
  await run.nodeAction('polish_prompt', 'run-from-here')
  await run.finished(45_000)

  for (const id of UPSTREAM) {
    await run.expectStatus(id, 'success')
    await expect(run.cached(id)).toBeVisible()
    await expect(run.cached(id)).toHaveAttribute('data-reason', 'reused')
  }
  for (const id of DOWNSTREAM) {
    await run.expectStatus(id, 'success')
    await expect(run.cached(id)).toHaveCount(0)
  }
  // The re-run prompt used the edit; the reused critique is the first run's, word for word.
  await expect(app.page.getByTestId('node-run-details')).toContainText('Say it in one short sentence.')
  await expect(run.result).toContainText(critique.trim().slice(0, 40))
  // The timeline shows the same: the reused nodes as not run, the re-run ones as bars.
  const timeline = app.page.getByTestId('run-timeline')
  await expect(timeline.locator('[data-node-id="draft"]')).toHaveAttribute('data-cached', 'reused')
  await expect(timeline.locator('[data-node-id="polish"]')).not.toHaveAttribute('data-cached', /.+/)
  await run.openHistory()
  await expect(run.historyItems).toHaveCount(2)

  // "Run this node" from the context menu: the node alone; what depends on it is not run.
  await run.nodeAction('critique_prompt', 'run-node', 'contextMenu')
  await run.finished(45_000)
  await run.expectStatus('critique_prompt', 'success')
  await expect(run.cached('critique_prompt')).toHaveCount(0)
  await expect(run.cached('draft')).toBeVisible()
  await run.expectStatus('critique', 'skipped')
})

test('pin a node and run: the pin is used instead of running it, and it survives a reload', async ({
  app,
}) => {
  test.slow()
  const { templates, run, canvas } = app
  await templates.open()
  await templates.openTemplate('llm-chain')
  await run.start()
  await run.finished(45_000)
  const draft = await run.consoleText('draft')

  await canvas.select('draft')
  await run.nodeAction('draft', 'pin-output')
  await expect(run.node('draft')).toHaveAttribute('data-pinned', 'true')
  await expect(run.node('draft').getByTestId('node-pinned')).toBeVisible()
  await app.saved()
  await app.reload()
  await expect(run.node('draft')).toHaveAttribute('data-pinned', 'true')

  await run.start()
  await run.finished(45_000)
  await expect(run.cached('draft')).toHaveAttribute('data-reason', 'pinned')
  await expect(run.cached('brief')).toHaveCount(0)
  await run.expectStatus('result', 'success')
  // The pinned node streamed nothing this time: its output came from the pin, word for word.
  expect(draft).not.toBe('')
  expect(await run.consoleText('draft')).toBe('')

  await canvas.select('draft')
  await run.nodeAction('draft', 'unpin-output')
  await expect(run.node('draft')).not.toHaveAttribute('data-pinned', 'true')
})

test('reload mid-run: History holds the run as interrupted with what finished, and run from here continues it', async ({
  app,
  request,
}) => {
  test.slow()
  const { templates, run, canvas, settings } = app
  const mock = new MockModel(request, MOCK_PORTS.debugLoop)
  await mock.reset()
  await settings.open()
  await settings.addProvider({
    id: 'mock',
    name: 'Local mock',
    kind: 'openai',
    baseUrl: mockBaseUrl(MOCK_PORTS.debugLoop),
    apiKey: 'sk-e2e-mock-0123456789',
    model: 'mock-model',
  })
  await settings.close()
  await templates.open()
  await templates.openTemplate('llm-chain')
  // The draft comes at once; the critique streams for half a minute: the reload lands in it.
  await mock.script([
    { text: 'A quick first draft.', delayMs: 5 },
    { text: words(200, 'slow'), delayMs: 150 },
  ])
  await run.start()
  await run.expectStatus('draft', 'success')
  await expect(run.console('critique')).toContainText('slow2')
  await app.reload()

  await run.openHistory()
  await expect(run.historyItems).toHaveCount(1)
  await expect(run.historyItems.first()).toHaveAttribute('data-status', 'interrupted')
  await run.openPastRun(0)
  await run.expectStatus('draft', 'success')
  await run.expectStatus('critique', 'stopped')
  await run.backToLive()

  // Continue it from the node it was in: what finished is reused, the rest runs (echo replies).
  await canvas.select('critique')
  await run.nodeAction('critique', 'run-from-here')
  await run.finished(45_000)
  for (const id of ['brief', 'draft_prompt', 'draft', 'critique_prompt'])
    await expect(run.cached(id)).toHaveAttribute('data-reason', 'reused')
  await run.expectStatus('critique', 'success')
  await run.expectStatus('result', 'success')
  await expect(run.cached('critique')).toHaveCount(0)
  await run.openHistory()
  await expect(run.historyItems).toHaveCount(2)
  await expect(run.historyItems.first()).toHaveAttribute('data-status', 'success')
  await expect(run.historyItems.nth(1)).toHaveAttribute('data-status', 'interrupted')
})

interface OtlpAttr {
  key: string
  value: Record<string, unknown>
}
interface OtlpSpan {
  spanId: string
  parentSpanId?: string
  name: string
  attributes: OtlpAttr[]
}

/** The spans of a downloaded OTLP JSON trace file. */
async function downloadedSpans(
  app: { page: Page },
  content: boolean,
): Promise<{ text: string; spans: OtlpSpan[] }> {
  const box = app.page.getByRole('checkbox', { name: 'include prompts and replies' })
  if (content) await box.check()
  else await box.uncheck()
  const [download] = await Promise.all([
    app.page.waitForEvent('download'),
    app.page.getByTestId('run-trace-download').click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^wardflow-trace-.+\.json$/)
  const text = await readFile(await download.path(), 'utf8')
  const parsed = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }
  const spans = parsed.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))
  return { text, spans }
}

const attr = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value

test('download a past run trace: run, node and model-call spans; prompts only when ticked', async ({
  app,
}) => {
  test.slow()
  const { templates, run, canvas, inspector } = app
  const marker = 'Answer as a lighthouse keeper would.'
  await templates.open()
  await templates.openTemplate('llm-chain')
  await canvas.select('polish_prompt')
  await inspector.shows('polish_prompt')
  await inspector.typeInto(inspector.field('Template'), marker)
  await app.saved()
  await run.start()
  await run.finished(45_000)
  await run.expectStatus('result', 'success')
  await run.openPastRun()

  const bare = await downloadedSpans(app, false)
  const roots = bare.spans.filter((s) => s.parentSpanId === undefined || s.parentSpanId === '')
  expect(roots, 'one run span').toHaveLength(1)
  const root = roots[0]!
  const nodes = bare.spans.filter((s) => s.parentSpanId === root.spanId && attr(s, 'wardflow.node.type'))
  expect(nodes.map((s) => attr(s, 'wardflow.node.id')?.stringValue)).toEqual(
    expect.arrayContaining([...UPSTREAM, ...DOWNSTREAM]),
  )
  const nodeIds = new Set(nodes.map((s) => s.spanId))
  const calls = bare.spans.filter(
    (s) =>
      s.attributes.some((a) => a.key.startsWith('gen_ai.request.')) ||
      attr(s, 'gen_ai.operation.name')?.stringValue === 'chat',
  )
  expect(calls.length, 'a model-call span per LLM node').toBeGreaterThanOrEqual(3)
  for (const call of calls) expect(nodeIds.has(call.parentSpanId ?? '')).toBe(true)
  expect(bare.text, 'no prompt text without the box').not.toContain(marker)
  expect(calls.some((c) => attr(c, 'gen_ai.input.messages'))).toBe(false)

  const full = await downloadedSpans(app, true)
  expect(full.text, 'the prompt with the box ticked').toContain(marker)
  expect(
    full.spans.some((s) => String(attr(s, 'gen_ai.input.messages')?.stringValue ?? '').includes(marker)),
  ).toBe(true)
})

/** `node bin/wardflow.mjs …args` from the repository root, as a person runs the CLI. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['bin/wardflow.mjs', ...args],
      { env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    )
  })
}

test('download a past run as a cassette: its model replies, no keys; wardflow test replays it', async ({
  app,
}) => {
  test.slow()
  const { templates, run } = app
  await templates.open()
  await templates.openTemplate('llm-chain')
  await run.start()
  await run.finished(45_000)
  await run.expectStatus('result', 'success')
  const flowFile = await app.exportWorkflow()
  await run.openPastRun()
  const cassette = await downloadOf(app.page, () => app.page.getByTestId('run-cassette-download').click())
  expect(cassette.name).toBe(flowFile.name.replace(/\.wardflow\.json$/, '.cassette.json'))
  const parsed = JSON.parse(cassette.text) as {
    format: string
    version: number
    calls: { kind: string; request: { messages: unknown[] }; chunks: { type: string }[] }[]
    expected?: { status: string; outputs: Record<string, unknown> }
  }
  expect(parsed.format).toBe('wardflow-cassette')
  expect(parsed.version).toBe(1)
  expect(parsed.calls.length, 'a model call per LLM node').toBeGreaterThanOrEqual(3)
  for (const call of parsed.calls) {
    expect(call.kind).toBe('model')
    expect(call.request.messages.length).toBeGreaterThan(0)
    expect(call.chunks.at(-1)?.type).toBe('done')
  }
  expect(parsed.expected?.status).toBe('success')
  expect(Object.keys(parsed.expected?.outputs ?? {}).length).toBeGreaterThan(0)
  expect(cassette.text).not.toMatch(/authorization|api[-_]?key|"headers"|\bsk-/i)

  // The browser's run replays in the CLI with no network: the flow's export beside it.
  const folder = await mkdtemp(join(tmpdir(), 'wardflow-e2e-cassette-'))
  try {
    await writeFile(join(folder, flowFile.name), flowFile.text)
    await writeFile(join(folder, cassette.name), cassette.text)
    const result = await cli(['test', folder])
    expect(result.stderr).toContain('1 of 1 flows match their cassettes')
    expect(result.code).toBe(0)
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
})
