import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { jsonLines, ROOT, wardflow, type CliResult } from '../support/wardflowCli.ts'

const fixture = (name: string) => `tests/fixtures/cli/${name}`

describe('wardflow run (spawned)', { timeout: 60_000 }, () => {
  let mock: MockOpenAiServer
  beforeAll(async () => {
    mock = await startMockOpenAiServer({ apiKey: 'sk-test-123' })
  })
  afterAll(async () => {
    await mock.close()
  })

  it('plays a demo script and prints one engine event per line with --json, exit 0', async () => {
    const result = await wardflow([
      'run',
      fixture('hello.wardflow.json'),
      '--script',
      fixture('hello.demo-script.json'),
      '--json',
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const events = jsonLines(result.stdout)
    expect(events[0]).toMatchObject({
      type: 'runStart',
      flowId: 'cli_hello',
      nodeIds: ['input_1', 'template_1', 'llm_1', 'output_1'],
    })
    expect(events.at(-1)).toMatchObject({
      type: 'runFinish',
      status: 'success',
      usage: { prompt: 20, completion: 6, total: 26 },
    })
    for (const event of events)
      expect(event).toEqual(expect.objectContaining({ runId: events[0]?.runId, at: expect.any(Number) }))
    const chunks = events.filter((e) => e.type === 'nodeChunk' && e.nodeId === 'llm_1')
    expect(chunks.length).toBeGreaterThan(1)
    const output = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'output_1')
    expect(output).toMatchObject({
      output: { answer: 'Wardflow runs prompt flows.', asked: 'Answer in a plain tone: What is Wardflow?' },
    })
  })

  it('overrides Input node values with --input, by key and by nodeId.key', async () => {
    const result = await wardflow([
      'run',
      fixture('hello.wardflow.json'),
      '--script',
      fixture('hello.demo-script.json'),
      '--input',
      'question=Why?',
      '--input=input_1.tone=pirate',
      '--json',
    ])
    expect(result.code).toBe(0)
    const events = jsonLines(result.stdout)
    const template = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'template_1')
    expect(template).toMatchObject({ output: { text: 'Answer in a pirate tone: Why?' } })
  })

  it('prints a readable log with the streamed reply and the final outputs', async () => {
    const result = await wardflow([
      'run',
      fixture('hello.wardflow.json'),
      '--script',
      fixture('hello.demo-script.json'),
      '--input',
      'nope=1',
    ])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('── Model (llm_1) ──\nWardflow runs prompt flows.\n')
    expect(result.stdout).toContain('Run succeeded')
    expect(result.stdout).toMatch(/Outputs\n {2}answer: Wardflow runs prompt flows\.\n/)
    expect(result.stderr).toContain('--input nope matches no Input node value')
  })

  it('runs code in the Node sandbox', async () => {
    const result = await wardflow(['run', fixture('code.wardflow.json'), '--json'])
    expect(result.code).toBe(0)
    const events = jsonLines(result.stdout)
    expect(events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'out')).toMatchObject({
      output: { value: '42' },
    })
    expect(
      events.some((e) => e.type === 'nodeChunk' && e.channel === 'log' && e.text.includes('doubling 21')),
    ).toBe(true)
  })

  it('exits 1 when a node fails, after skipping only what depends on it', async () => {
    const result = await wardflow(['run', fixture('failing.wardflow.json'), '--json'])
    expect(result.code).toBe(1)
    const events = jsonLines(result.stdout)
    expect(events.find((e) => e.type === 'nodeError')).toMatchObject({
      nodeId: 'fetch',
      code: 'HTTP_BAD_URL',
    })
    expect(
      events.filter((e) => e.type === 'nodeSkipped').map((e) => (e.type === 'nodeSkipped' ? e.nodeId : '')),
    ).toEqual(['out'])
    expect(events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'side')).toBeDefined()
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'error' })
  })

  it('exits 2 with a one-line reason for a missing file, broken JSON, a cycle or a bad option', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['run', fixture('missing.wardflow.json')],
        /cannot read the workflow file .*missing\.wardflow\.json: no such file/,
      ],
      [['run', fixture('broken-workflow.txt')], /is not a valid workflow: .*JSON/],
      [['run', fixture('cycle.wardflow.json')], /cycle: a -> b -> a|a → b → a/],
      [
        ['run', fixture('hello.wardflow.json'), '--script', fixture('missing.demo-script.json')],
        /cannot read the demo script/,
      ],
      [['run', fixture('hello.wardflow.json'), '--frobnicate'], /unknown option "--frobnicate"/],
    ]
    const results = await Promise.all(cases.map(([args]) => wardflow(args)))
    results.forEach((result, i) => {
      expect(result.code, cases[i]?.[0].join(' ')).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(cases[i]?.[1] as RegExp)
    })
  })

  it('sends every model node to an OpenAI-compatible server with --base-url, streaming or not', async () => {
    const base = [
      'run',
      fixture('hello.wardflow.json'),
      '--base-url',
      mock.baseUrl,
      '--model',
      'mock-model',
      '--api-key-env',
      'WF_TEST_KEY',
      '--json',
    ]
    const streamed = await wardflow(base, { WF_TEST_KEY: 'sk-test-123' })
    expect(streamed.stderr).toBe('')
    expect(streamed.code).toBe(0)
    const events = jsonLines(streamed.stdout)
    const answer = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'llm_1')
    expect(answer).toMatchObject({
      output: {
        response: 'Echo: Answer in a plain tone: What is Wardflow?',
        model: expect.stringContaining('mock-model'),
      },
    })
    expect(events.filter((e) => e.type === 'nodeChunk' && e.nodeId === 'llm_1').length).toBeGreaterThan(1)
    const chat = mock.requests.filter((r) => r.path === '/v1/chat/completions')
    expect(chat.at(-1)?.body).toMatchObject({ model: 'mock-model', stream: true })

    const whole = await wardflow([...base, '--no-stream'], { WF_TEST_KEY: 'sk-test-123' })
    expect(whole.code).toBe(0)
    expect(mock.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body).toMatchObject({
      stream: false,
    })

    const missingKey = await wardflow(base)
    expect(missingKey.code).toBe(2)
    expect(missingKey.stderr).toContain('WF_TEST_KEY')
  })

  it('resolves site-relative tool URLs against --site-base, and without it refuses in one line', async () => {
    const template = 'public/templates/research-agent.wardflow.json'
    const without = await wardflow(['run', template])
    expect(without.code).toBe(2)
    expect(without.stdout).toBe('')
    expect(without.stderr.trim().split('\n')).toHaveLength(1)
    expect(without.stderr).toContain('"./data/meetup/cities.json"')
    expect(without.stderr).toContain('pass --site-base URL')

    // The site: public/ under a sub-path, as GitHub Pages would serve the build.
    const served: string[] = []
    const site: Server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname
      served.push(path)
      const file = path.startsWith('/wardflow/data/')
        ? resolve(ROOT, 'public', path.slice('/wardflow/'.length))
        : ''
      readFile(file).then(
        (body) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body),
        () => res.writeHead(404).end(),
      )
    })
    await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening))
    try {
      const { port } = site.address() as AddressInfo
      const run = await wardflow([
        'run',
        template,
        '--site-base',
        `http://127.0.0.1:${port}/wardflow`,
        '--json',
      ])
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(served.sort()).toEqual([
        '/wardflow/data/meetup/cities.json',
        '/wardflow/data/meetup/venues.json',
      ])
      const answer = jsonLines(run.stdout).find((e) => e.type === 'nodeFinish' && e.nodeId === 'answer')
      expect(JSON.stringify(answer)).toContain('Warsaw')
    } finally {
      await new Promise((closed) => site.close(closed))
    }
  })

  it('prints help and works through npx from the repo root', async () => {
    const help = await wardflow(['run', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: wardflow run')
    const viaNpx = await new Promise<CliResult>((done) => {
      const child = spawn('npx', ['--no-install', 'wardflow', 'run', fixture('code.wardflow.json')], {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: '1' },
      })
      let stdout = ''
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
      child.on('close', (code) => done({ code, stdout, stderr: '' }))
    })
    expect(viaNpx.code).toBe(0)
    expect(viaNpx.stdout).toContain('value: 42')
  })
})
