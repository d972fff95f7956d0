/** `wardflow run --trace FILE` and `--otlp URL` (spawned), against a receiver the test starts. */
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { otlpTracesUrl, printableUrl } from '../../src/cli/trace.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { parentName, readTrace } from '../support/otlpCheck.ts'
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlpReceiver.ts'
import { wardflow } from '../support/wardflowCli.ts'

const KEY = 'sk-trace-cli-4242'
const TOKEN = 'Bearer otlp-secret-token-77'
const FLOW = 'tests/fixtures/cli/trace-agent.wardflow.json'

describe('wardflow run --trace / --otlp', { timeout: 60_000 }, () => {
  let mock: MockOpenAiServer
  let receiver: OtlpReceiver
  let dir: string
  beforeAll(async () => {
    mock = await startMockOpenAiServer({ apiKey: KEY })
    receiver = await startOtlpReceiver({ authorization: TOKEN })
    dir = await mkdtemp(join(tmpdir(), 'wardflow-trace-'))
  })
  afterAll(async () => {
    await mock.close()
    await receiver.close()
  })

  const agentScript = () =>
    mock.setScript([
      {
        toolCalls: [{ id: 'call_1', name: 'query_orders', arguments: '{"status":"pending"}' }],
        usage: { prompt: 40, completion: 8 },
      },
      { text: `Two pending orders (the key was ${KEY}).`, usage: { prompt: 60, completion: 9 } },
    ])
  const base = ['run', FLOW, '--base-url', '', '--model', 'mock-model', '--api-key-env', 'WF_KEY']
  const args = (...more: string[]) => {
    const out = [...base, ...more]
    out[3] = mock.baseUrl
    return out
  }

  it('writes the run as OTLP JSON and sends the same spans to a collector, which reads them back', async () => {
    agentScript()
    const file = join(dir, 'trace.json')
    const result = await wardflow(
      args('--trace', file, '--otlp', receiver.url, '--otlp-header', `authorization=${TOKEN}`),
      { WF_KEY: KEY },
    )
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).not.toContain('otlp-secret-token')

    const written = JSON.parse(await readFile(file, 'utf8')) as unknown
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]!.headers['content-type']).toBe('application/json')
    // Read back from the receiver over HTTP, as a trace viewer would.
    const back = (await (await fetch(`${receiver.url}/v1/traces`)).json()) as unknown[]
    expect(back).toHaveLength(1)
    expect(back[0]).toEqual(written)

    const spans = readTrace(back[0])
    expect(spans[0]!.name).toBe('run Trace CLI')
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat')
    expect(chats).toHaveLength(2)
    expect(chats.map((s) => parentName(spans, s))).toEqual(['node agent_1', 'node agent_1'])
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.system': 'cli',
      'gen_ai.request.model': 'mock-model',
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 8,
    })
    const tool = spans.find((s) => s.attributes['gen_ai.tool.name'] === 'query_orders')!
    expect(parentName(spans, tool)).toBe('node agent_1')
    expect(spans.find((s) => s.name === 'node agent_1')!.attributes['wardflow.node.type']).toBe('agent')
    // No content unless asked for, and never the key or the collector's token.
    const text = JSON.stringify(written)
    expect(text).not.toContain('Two pending orders')
    expect(text).not.toContain('How many pending orders?')
    expect(text).not.toContain(KEY)
    expect(text).not.toContain('otlp-secret-token')
  })

  it('puts prompts, replies and tool results in with --trace-content, keys scrubbed', async () => {
    agentScript()
    const file = join(dir, 'content.json')
    const result = await wardflow(args('--trace', file, '--trace-content'), { WF_KEY: KEY })
    expect(result.code).toBe(0)
    const text = await readFile(file, 'utf8')
    expect(text).not.toContain(KEY)
    const spans = readTrace(JSON.parse(text))
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat')
    expect(String(chats[0]!.attributes['gen_ai.input.messages'])).toContain('How many pending orders?')
    expect(String(chats[1]!.attributes['gen_ai.output.messages'])).toContain(
      'Two pending orders (the key was [redacted]).',
    )
    const tool = spans.find((s) => s.attributes['gen_ai.tool.name'] === 'query_orders')!
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('{"rows":["pending","pending"]}')
  })

  it('reports a collector that refuses without printing the header, and exits 1', async () => {
    agentScript()
    const result = await wardflow(
      args('--otlp', `${receiver.url}/v1/traces`, '--otlp-header', 'authorization=Bearer wrong-token-55'),
      {
        WF_KEY: KEY,
      },
    )
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`the collector at ${receiver.url}/v1/traces answered HTTP 401`)
    expect(result.stderr + result.stdout).not.toContain('wrong-token-55')
  })

  it('refuses bad trace options in one line (exit 2)', async () => {
    for (const bad of [
      ['--otlp', 'ftp://x'],
      ['--otlp-header', 'authorization=x'],
      ['--trace-content'],
      ['--otlp', receiver.url, '--otlp-header', 'bad name=secret-value-1'],
    ]) {
      const result = await wardflow(args(...bad), { WF_KEY: KEY })
      expect(result.code).toBe(2)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).not.toContain('secret-value-1')
    }
  })

  it('takes the collector base or the full traces URL', () => {
    expect(otlpTracesUrl('http://localhost:4318')).toBe('http://localhost:4318/v1/traces')
    expect(otlpTracesUrl('http://localhost:4318/')).toBe('http://localhost:4318/v1/traces')
    expect(otlpTracesUrl('https://otel.example/otlp')).toBe('https://otel.example/otlp/v1/traces')
    expect(otlpTracesUrl('https://otel.example/otlp/v1/traces')).toBe('https://otel.example/otlp/v1/traces')
    expect(printableUrl('https://user:pw@otel.example/v1/traces?token=abc')).toBe(
      'https://otel.example/v1/traces',
    )
  })
})
