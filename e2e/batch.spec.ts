/**
 * Batch runs (issue 22, item 1): a 100-row CSV through Input -> LLM -> Output against the local
 * mock model, which fails a few requests (HTTP 400: not retried); the failures filter, a re-run
 * of the failed rows, a row's run opened on the canvas, and both exports read back from the
 * downloads.
 */
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { downloadOf, jsonFile } from './support/files.ts'
import { mockBaseUrl, MOCK_PORTS, MockModel, type MockReply } from './support/mockModel.ts'

const ROWS = 100
const FAILING = [7, 33, 61, 88]

test.use({ allowedErrors: /HTTP 400 POST .*chat\/completions|status of 400/ })

const flow = {
  format: 'wardflow.workflow',
  version: 1,
  metadata: {
    id: 'batch-e2e',
    name: 'Batch e2e',
    createdAt: '2026-12-01T00:00:00.000Z',
    updatedAt: '2026-12-01T00:00:00.000Z',
  },
  nodes: [
    {
      id: 'in',
      type: 'input',
      position: { x: 0, y: 0 },
      data: { label: 'In', config: { configVersion: 1, values: { question: 'unset', topic: 'unset' } } },
    },
    {
      id: 'ask',
      type: 'llm',
      position: { x: 300, y: 0 },
      data: {
        label: 'Ask',
        config: {
          configVersion: 1,
          provider: 'mock',
          model: 'mock-model',
          systemPrompt: '',
          prompt: '{{in.question}} about {{in.topic}}',
          temperature: 0,
          maxTokens: 256,
          stream: true,
        },
      },
    },
    {
      id: 'out',
      type: 'output',
      position: { x: 600, y: 0 },
      data: { label: 'Out', config: { configVersion: 1, values: { answer: '{{ask.response}}' } } },
    },
  ],
  edges: [
    { id: 'e1', source: 'in', target: 'ask' },
    { id: 'e2', source: 'ask', target: 'out' },
  ],
}

/** 100 rows; the header's `Topic` maps to the key `topic` loosely, quoted commas and a newline inside. */
function csv(): string {
  const lines = ['question,Topic,unused']
  for (let i = 0; i < ROWS; i++) lines.push(`"Q${i}, please","t${i}${i === 5 ? '\nsecond line' : ''}",x`)
  return `${lines.join('\n')}\n`
}

async function openBatch(page: Page): Promise<void> {
  await page.getByTestId('batch-open').click()
  await expect(page.getByTestId('batch-screen')).toBeVisible()
}

test('a 100-row batch with failing rows: filter, re-run failed, open a row, export', async ({
  app,
  request,
}) => {
  test.slow()
  const page = app.page
  const mock = new MockModel(request, MOCK_PORTS.batch)
  await mock.reset()
  // Requests in the order the rows start: four of them fail, then the echo answers the rest.
  const replies: MockReply[] = Array.from({ length: ROWS }, (_, i) =>
    FAILING.includes(i) ? { status: 400, error: `scripted failure ${i}` } : { text: `ok ${i}` },
  )
  await mock.script(replies, 'echo')
  await app.open()

  await app.settings.open()
  await app.settings.addProvider({
    id: 'mock',
    name: 'Local mock',
    kind: 'openai',
    baseUrl: mockBaseUrl(MOCK_PORTS.batch),
    apiKey: 'sk-e2e-mock-0123456789',
    model: 'mock-model',
  })
  await app.settings.close()
  await app.importWorkflow(jsonFile('batch.wardflow.json', flow))
  await expect(page.getByTestId('flow-node')).toHaveCount(3)

  await openBatch(page)
  await page
    .getByTestId('batch-data-input')
    .setInputFiles({ name: 'rows.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(), 'utf8') })
  await expect(page.getByTestId('batch-file')).toContainText('100 rows')
  // Mapped by name: `question` exactly, `topic` from the column `Topic`.
  await expect(page.getByTestId('batch-map-question')).toHaveValue('question')
  await expect(page.getByTestId('batch-map-topic')).toHaveValue('Topic')
  await page.getByTestId('batch-concurrency').fill('4')

  await page.getByTestId('batch-run').click()
  await expect(page.getByTestId('batch-progress')).toBeVisible()
  await expect(page.getByTestId('batch-summary')).toContainText('100 of 100 rows done, 4 failed', {
    timeout: 60_000,
  })
  await expect(page.getByTestId('batch-run')).toBeEnabled()
  const requests = await mock.chatRequests()
  expect(requests).toHaveLength(ROWS)
  // Each row's values reached the model (row 5's cell held a newline inside its quotes).
  const prompts = requests.map((r) => JSON.stringify(r.body))
  expect(prompts.some((p) => p.includes('Q42, please about t42'))).toBe(true)
  expect(prompts.some((p) => p.includes('t5\\nsecond line'))).toBe(true)

  // The filter lists the four failed rows, each with the model's error.
  await page.getByTestId('batch-only-failures').check()
  const failedRows = page.getByTestId('batch-results').getByTestId('batch-row')
  await expect(failedRows).toHaveCount(4)
  for (const row of await failedRows.all()) {
    await expect(row).toHaveAttribute('data-status', 'error')
    await expect(row).toContainText('scripted failure')
  }

  // Re-run the failed rows: the mock now echoes, so they succeed.
  await page.getByTestId('batch-rerun-failed').click()
  await expect(page.getByTestId('batch-summary')).toContainText('4 of 4 rows done, 0 failed', {
    timeout: 30_000,
  })
  await expect(failedRows).toHaveCount(0)
  await page.getByTestId('batch-only-failures').uncheck()
  await expect(page.getByTestId('batch-row').first()).toHaveAttribute('data-status', 'success')

  // Export JSONL: one line per row, in row order, every row now succeeded.
  const jsonl = await downloadOf(page, () => page.getByTestId('batch-export-jsonl').click())
  expect(jsonl.name).toBe('rows.results.jsonl')
  const lines = jsonl.text
    .trimEnd()
    .split('\n')
    .map(
      (l) => JSON.parse(l) as { row: number; status: string; outputs: { answer?: string }; usage: unknown },
    )
  expect(lines.map((l) => l.row)).toEqual(Array.from({ length: ROWS }, (_, i) => i))
  expect(lines.every((l) => l.status === 'success')).toBe(true)
  const rerun = lines.filter((l) => l.outputs.answer?.startsWith('Echo: '))
  expect(rerun.length).toBeGreaterThanOrEqual(FAILING.length)
  expect(Object.keys(lines[0] as object)).toEqual(['row', 'status', 'outputs', 'usage'])

  // Export CSV: a header, then 100 rows.
  const csvOut = await downloadOf(page, () => page.getByTestId('batch-export-csv').click())
  expect(csvOut.name).toBe('rows.results.csv')
  expect(csvOut.text.split('\n')[0]).toBe(
    'row,status,output.answer,prompt_tokens,completion_tokens,total_tokens,cost_usd,error',
  )
  expect(csvOut.text.trimEnd().split('\n')).toHaveLength(ROWS + 1)

  // Open row 3's run: the canvas shows it as a past run.
  const row3 = page.locator('[data-testid="batch-row"][data-row="3"]')
  await row3.getByTestId('batch-row-open').click()
  await expect(page.getByTestId('batch-screen')).toBeHidden()
  await expect(page.getByTestId('run-past-view')).toBeVisible()
  await expect(page.locator('[data-testid="flow-node"][data-node-id="out"]')).toHaveAttribute(
    'data-status',
    'success',
  )
  // Its run is not in Run history: a batch's rows stay apart from it.
  await page.getByTestId('run-back-to-live').click()

  // Back in the batch screen the results are still there.
  await openBatch(page)
  await expect(page.getByTestId('batch-summary')).toContainText('0 failed')
})
