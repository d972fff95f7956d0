/**
 * No reply can exhaust the CLI's memory: the real CLI (bin/wardflow.mjs) against a local server
 * sending a 200 MB line, a 300 MB error body or a 200 MB whole reply, each generated as it is
 * sent (never allocated at once), must fail clearly and peak under 400 MB of resident memory.
 * Peak RSS is read by /usr/bin/time -v when present, else from /proc/<pid>/status (VmHWM).
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const MB = 1024 * 1024
const PEAK_LIMIT_KB = 400 * 1024
const TIME = '/usr/bin/time'
const PIECE = Buffer.alloc(MB, 'x')

type Reply = 'line' | 'errorBody' | 'wholeReply'
let reply: Reply = 'line'
/** Bytes the server wrote for the last reply before the CLI hung up. */
let sent = 0

/** Writes `head`, then `total` bytes of filler with backpressure, until the client goes away. */
async function stream(res: ServerResponse, head: string, total: number): Promise<void> {
  sent = 0
  res.write(head)
  while (sent < total && !res.destroyed) {
    sent += PIECE.length
    if (!res.write(PIECE))
      await new Promise<void>((done) => {
        res.once('drain', done)
        res.once('close', done)
      })
  }
  res.end()
}

function answer(res: ServerResponse): void {
  if (reply === 'line') {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    void stream(res, 'data: ', 200 * MB)
  } else if (reply === 'errorBody') {
    res.writeHead(401, { 'content-type': 'text/plain' })
    void stream(res, 'Your key was refused because ', 300 * MB)
  } else {
    res.writeHead(200, { 'content-type': 'application/json' })
    void stream(res, '{"choices":[{"message":{"content":"', 200 * MB)
  }
}

interface Measured {
  code: number | null
  stdout: string
  stderr: string
  peakKb: number
}

function peakOf(stderr: string): number {
  const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)
  return match ? Number(match[1]) : NaN
}

/** Runs the CLI and measures its peak resident memory. */
function measured(args: string[]): Promise<Measured> {
  const viaTime = existsSync(TIME)
  const command = viaTime ? TIME : process.execPath
  const argv = viaTime ? ['-v', process.execPath, 'bin/wardflow.mjs', ...args] : ['bin/wardflow.mjs', ...args]
  return new Promise((done, fail) => {
    const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } })
    let stdout = ''
    let stderr = ''
    let polled = 0
    const poll = viaTime
      ? undefined
      : setInterval(() => {
          try {
            const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]
            polled = Math.max(polled, Number(kb ?? 0))
          } catch {
            // The process has ended.
          }
        }, 20)
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', fail)
    child.on('close', (code) => {
      if (poll) clearInterval(poll)
      done({ code, stdout, stderr, peakKb: viaTime ? peakOf(stderr) : polled })
    })
  })
}

describe('the CLI under a reply meant to exhaust its memory', { timeout: 120_000 }, () => {
  let server: Server
  let baseUrl = ''
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume()
      req.on('end', () => answer(res))
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  })
  afterAll(() => new Promise<void>((done) => server.close(() => done())))

  const run = (...extra: string[]) =>
    measured([
      'run',
      'tests/fixtures/cli/hello.wardflow.json',
      '--base-url',
      baseUrl,
      '--model',
      'm',
      ...extra,
    ])

  it('a 200 MB single SSE line: a clear failure, peak under 400 MB', async () => {
    reply = 'line'
    const result = await run()
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/PROVIDER_BAD_RESPONSE.*a line longer than 1 M characters/)
    expect(result.peakKb).toBeLessThan(PEAK_LIMIT_KB)
    expect(sent).toBeLessThan(200 * MB)
  })

  it('a 300 MB error body: the message from its start, peak under 400 MB', async () => {
    reply = 'errorBody'
    const result = await run()
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/PROVIDER_AUTH.*The server said: Your key was refused because x/)
    expect(result.peakKb).toBeLessThan(PEAK_LIMIT_KB)
    expect(sent).toBeLessThan(300 * MB)
  })

  it('a 200 MB whole (non-streamed) reply: a clear failure, peak under 400 MB', async () => {
    reply = 'wholeReply'
    const result = await run('--no-stream')
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/PROVIDER_BAD_RESPONSE.*longer than 32 M characters/)
    expect(result.peakKb).toBeLessThan(PEAK_LIMIT_KB)
  })
})
