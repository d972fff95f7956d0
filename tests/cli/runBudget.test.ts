/**
 * `wardflow run` prices its calls from the bundled table and bounds the whole run
 * (--max-run-tokens, --max-run-cost-usd, metadata.limits), against the local OpenAI-compatible
 * mock server over real HTTP.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { jsonLines, wardflow } from '../support/wardflowCli.ts'

const HELLO = 'tests/fixtures/cli/hello.wardflow.json'
/** gpt-4o-mini in the table: $0.15 per million input tokens, $0.60 per million output tokens. */
const MINI_COST = (prompt: number, completion: number) => (prompt * 0.15 + completion * 0.6) / 1e6

describe('wardflow run: cost and whole-run budget', { timeout: 60_000 }, () => {
  let mock: MockOpenAiServer
  let dir: string
  beforeAll(async () => {
    mock = await startMockOpenAiServer({ apiKey: 'sk-budget-1' })
    dir = await mkdtemp(join(tmpdir(), 'wardflow-budget-'))
  })
  afterAll(async () => {
    await mock.close()
    await rm(dir, { recursive: true, force: true })
  })

  const run = (extra: string[], file = HELLO) =>
    wardflow(
      [
        'run',
        file,
        '--base-url',
        mock.baseUrl,
        '--model',
        'gpt-4o-mini',
        '--api-key-env',
        'WF_KEY',
        ...extra,
      ],
      { WF_KEY: 'sk-budget-1' },
    )

  it('prices a known model from the table, on the events and in the last line', async () => {
    mock.setScript([{ text: 'Priced.', usage: { prompt: 1000, completion: 500 } }])
    const json = await run(['--json'])
    expect(json.code).toBe(0)
    const finish = jsonLines(json.stdout).at(-1)
    expect(finish).toMatchObject({ type: 'runFinish', status: 'success', usage: { unpricedCalls: 0 } })
    expect((finish as { usage: { costUsd: number } }).usage.costUsd).toBeCloseTo(MINI_COST(1000, 500), 12)
    const node = jsonLines(json.stdout).find((e) => e.type === 'nodeFinish' && e.nodeId === 'llm_1')
    expect((node as { usage: { costUsd: number } }).usage.costUsd).toBeCloseTo(MINI_COST(1000, 500), 12)

    mock.setScript([{ text: 'Priced.', usage: { prompt: 1000, completion: 500 } }])
    const human = await run([])
    expect(human.stdout).toContain('Run succeeded')
    expect(human.stdout).toContain('1500 tokens, $0.0004')
  })

  it('counts a model the table does not know as unpriced, never guessing', async () => {
    mock.setScript([{ text: 'Unknown.', usage: { prompt: 10, completion: 5 } }])
    const result = await wardflow(
      [
        'run',
        HELLO,
        '--base-url',
        mock.baseUrl,
        '--model',
        'no-such-model-7',
        '--api-key-env',
        'WF_KEY',
        '--json',
      ],
      { WF_KEY: 'sk-budget-1' },
    )
    expect(result.code).toBe(0)
    expect(jsonLines(result.stdout).at(-1)).toMatchObject({ usage: { costUsd: null, unpricedCalls: 1 } })
  })

  it('--max-run-cost-usd stops the run past the limit: guard event, stopped, exit 1', async () => {
    mock.setScript([{ text: 'Too dear.', usage: { prompt: 100_000, completion: 10_000 } }])
    const result = await run(['--json', '--max-run-cost-usd', '0.01'])
    expect(result.code).toBe(1)
    const events = jsonLines(result.stdout)
    expect(events.find((e) => e.type === 'guard')).toMatchObject({
      layer: 'budget',
      scope: 'run',
      level: 'trip',
      unit: 'usd',
      budget: 0.01,
      nodeId: 'llm_1',
      message:
        '[Run Budget Exceeded] The run has used $0.0210, over its budget of $0.0100. Stopping the run.',
    })
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'nodeSkipped', nodeId: 'output_1', reason: 'budget' }),
    )
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'stopped', stopReason: 'budget' })
  })

  it("a flow's metadata.limits bound it; --max-run-tokens wins over them", async () => {
    const doc = JSON.parse(await readFile(HELLO, 'utf8')) as { metadata: Record<string, unknown> }
    doc.metadata['limits'] = { maxRunTokens: 5 }
    const limited = join(dir, 'limited.wardflow.json')
    await writeFile(limited, JSON.stringify(doc))
    const before = mock.requests.length
    const stopped = await run(['--json'], limited)
    expect(stopped.code).toBe(1)
    // The prompt alone is over 5 tokens: the call is never sent.
    expect(mock.requests.slice(before).filter((r) => r.path === '/v1/chat/completions')).toHaveLength(0)
    expect(jsonLines(stopped.stdout).find((e) => e.type === 'guard')).toMatchObject({
      phase: 'before-call',
      budget: 5,
    })

    mock.setScript([{ text: 'Fine.', usage: { prompt: 30, completion: 5 } }])
    const allowed = await run(['--json', '--max-run-tokens', '1000'], limited)
    expect(allowed.code).toBe(0)
  })

  it('the budget-team template stops on its own metadata.limits with the demo provider, exit 1', async () => {
    const result = await wardflow(['run', 'public/templates/budget-team.wardflow.json'])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      '[Run Budget Warning] The run has used 8000 tokens of its budget of 9000 tokens.',
    )
    expect(result.stdout).toContain(
      '[Run Budget Exceeded] The run has used 10000 tokens, over its budget of 9000 tokens. Stopping the run.',
    )
    expect(result.stdout).toMatch(/skipped: Not run: the run budget is spent\./)
    // The demo provider costs nothing: the stop line shows the tokens and $0.
    expect(result.stdout).toMatch(/^Run stopped by its budget in [\d.]+ s, 10000 tokens, \$0\.0000$/m)
  })

  it('refuses a limit that is not a number, exit 2', async () => {
    const result = await wardflow(['run', HELLO, '--max-run-tokens', '1.5'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--max-run-tokens expects a whole number of tokens')
  })
})
