/**
 * `wardflow batch`: one whole-run budget for the batch as a whole (flow-control.md). Every row's
 * run charges one ledger; the call that crosses a limit stops the row running, the rows not
 * started get `skipped` lines with the reason, stderr says the batch stopped, exit 1. Offline
 * with the demo provider (--script), and in dollars against the mock OpenAI server.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { wardflow } from '../support/wardflowCli.ts'

const HELLO = 'tests/fixtures/cli/hello.wardflow.json'
/** Every reply of this script reports 26 tokens (20 in, 6 out). */
const SCRIPT = 'tests/fixtures/cli/hello.demo-script.json'

interface Line {
  row: number
  status: string
  outputs: Record<string, unknown>
  usage: { total: number; costUsd?: number | null }
  error?: string
}

const lines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line)

describe('wardflow batch: one run budget for the batch', { timeout: 60_000 }, () => {
  let dir: string
  let rows: string
  let mock: MockOpenAiServer
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wardflow-batch-'))
    rows = join(dir, 'rows.jsonl')
    await writeFile(rows, ['a', 'b', 'c', 'd', 'e'].map((q) => JSON.stringify({ question: q })).join('\n'))
    mock = await startMockOpenAiServer({ apiKey: 'sk-batch-1' })
  })
  afterAll(async () => {
    await mock.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('--max-run-tokens bounds the rows together: the 3rd row stops, the rest are skipped, exit 1', async () => {
    const out = join(dir, 'tokens.jsonl')
    const result = await wardflow([
      'batch',
      HELLO,
      '--data',
      rows,
      '--concurrency',
      '1',
      '--script',
      SCRIPT,
      '--max-run-tokens',
      '70',
      '--out',
      out,
    ])
    expect(result.code).toBe(1)
    const written = lines(await readFile(out, 'utf8'))
    expect(written.map((l) => [l.row, l.status])).toEqual([
      [0, 'success'],
      [1, 'success'],
      [2, 'stopped'],
      [3, 'skipped'],
      [4, 'skipped'],
    ])
    // Each row alone (26 tokens) is far below 70: only the batch's sum crosses it.
    expect(written.slice(0, 3).map((l) => l.usage.total)).toEqual([26, 26, 26])
    expect(written[2]?.error).toBe('llm_1: The run budget is spent: the run was stopped.')
    const reason = "The batch's run budget is spent: 78 tokens used of 70 tokens."
    expect(written[3]).toEqual({
      row: 3,
      status: 'skipped',
      outputs: {},
      usage: { prompt: 0, completion: 0, total: 0, estimated: false },
      error: reason,
    })
    expect(result.stderr).toContain(`wardflow: batch stopped: ${reason}`)
    expect(result.stderr).toContain('wardflow: 2 of 5 rows succeeded')
  })

  it("a flow's metadata.limits bound the batch as well; --max-run-tokens wins over them", async () => {
    const doc = JSON.parse(await readFile(HELLO, 'utf8')) as { metadata: Record<string, unknown> }
    doc.metadata['limits'] = { maxRunTokens: 70 }
    const limited = join(dir, 'limited.wardflow.json')
    await writeFile(limited, JSON.stringify(doc))
    const args = ['batch', limited, '--data', rows, '--concurrency', '1', '--script', SCRIPT]
    const stopped = await wardflow(args)
    expect(stopped.code).toBe(1)
    expect(lines(stopped.stdout).map((l) => l.status)).toEqual([
      'success',
      'success',
      'stopped',
      'skipped',
      'skipped',
    ])
    const allowed = await wardflow([...args, '--concurrency', '2', '--max-run-tokens', '1000'])
    expect(allowed.code).toBe(0)
    expect(lines(allowed.stdout).map((l) => l.status)).toEqual(Array(5).fill('success'))
  })

  it('--max-run-cost-usd against a priced model: the row that crosses it stops the batch', async () => {
    // gpt-4o-mini: $0.15 / $0.60 per million tokens; 40,000 in and 5,000 out is $0.009 a call.
    mock.setScript([{ text: 'Priced.', usage: { prompt: 40_000, completion: 5_000 } }], 'repeat-last')
    const result = await wardflow(
      [
        'batch',
        HELLO,
        '--data',
        rows,
        '--concurrency',
        '1',
        '--base-url',
        mock.baseUrl,
        '--model',
        'gpt-4o-mini',
        '--api-key-env',
        'WF_KEY',
        '--max-run-cost-usd',
        '0.015',
      ],
      { WF_KEY: 'sk-batch-1' },
    )
    expect(result.code).toBe(1)
    const written = lines(result.stdout)
    expect(written.map((l) => l.status)).toEqual(['success', 'stopped', 'skipped', 'skipped', 'skipped'])
    expect(written[0]?.usage.costUsd).toBeCloseTo(0.009, 10)
    expect(written[2]?.error).toBe("The batch's run budget is spent: $0.0180 of $0.0150.")
  })
})
