/**
 * The repetitive-text guard through the real CLI against a recording OpenAI-compatible server:
 * a streamed reply that loops is cut (the server is not read to its end), `--json` prints the
 * content trip as a guard line, and the LLM node finishes stopped with stopReason degenerate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { jsonLines, wardflow } from '../support/wardflowCli.ts'

const LOOP = 'I am sorry, I cannot find that information right now. '
const CHUNKS = ['Let me look that up. ', ...Array.from({ length: 400 }, () => LOOP)]

describe('wardflow run: degenerate text (spawned)', { timeout: 60_000 }, () => {
  let mock: MockOpenAiServer
  beforeAll(async () => {
    mock = await startMockOpenAiServer({ apiKey: 'sk-test-123' })
  })
  afterAll(async () => {
    await mock.close()
  })

  it('stops a looping stream, prints the trip and keeps the text so far', async () => {
    mock.setScript([{ chunks: CHUNKS, usage: null }], 'repeat-last')
    const args = ['run', 'tests/fixtures/cli/hello.wardflow.json', '--base-url', mock.baseUrl, '--model', 'm']
    const result = await wardflow([...args, '--api-key-env', 'WF_TEST_KEY', '--json'], {
      WF_TEST_KEY: 'sk-test-123',
    })
    expect(result.stderr).toBe('')
    const events = jsonLines(result.stdout)
    const guards = events.filter((e) => e.type === 'guard')
    expect(guards).toEqual([
      expect.objectContaining({ nodeId: 'llm_1', layer: 'loop', level: 'trip', detector: 'content' }),
    ])
    const finish = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'llm_1')
    if (finish?.type !== 'nodeFinish') throw new Error('the LLM node did not finish')
    expect(finish).toMatchObject({ status: 'stopped', output: { stopReason: 'degenerate' } })
    const response = String(finish.output['response'])
    expect(response.startsWith('Let me look that up. I am sorry')).toBe(true)
    expect(response.length).toBeLessThan(2000)
    expect(events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'output_1')).toMatchObject({
      output: { answer: response },
    })
  })
})
