/**
 * The files the CLI is given: it checks what a path is before reading it (a named pipe hung it,
 * /dev/zero was read for 512 MB), decodes them as the browser's import does (UTF-16, BOMs), and
 * keeps a cut-off reply's text apart from the error that follows it.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, truncate, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMPORT_MAX_FILE_BYTES } from '../../src/defaults.ts'
import { main } from '../../src/cli/main.ts'
import { decodeTextFile } from '../../src/storage/textFile.ts'

const FIXTURES = resolve(import.meta.dirname, '../fixtures/cli')
const HELLO = join(FIXTURES, 'hello.wardflow.json')
const SCRIPT = join(FIXTURES, 'hello.demo-script.json')

class Collect extends Writable {
  text = ''
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString()
    callback()
  }
}

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Collect()
  const stderr = new Collect()
  const code = await main(args, { stdout, stderr, env: { NO_COLOR: '1' } })
  return { code, stdout: stdout.text, stderr: stderr.text }
}

function utf16(text: string, order: 'le' | 'be', bom: boolean): Buffer {
  const le = Buffer.from(`${bom ? '\ufeff' : ''}${text}`, 'utf16le')
  return order === 'le' ? le : le.swap16()
}

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wardflow-files-'))
})

describe('what the CLI agrees to read', { timeout: 20_000 }, () => {
  it('refuses a named pipe at once instead of hanging on it', async () => {
    const fifo = join(dir, 'pipe.wardflow.json')
    try {
      execFileSync('mkfifo', [fifo])
    } catch {
      console.warn('SKIPPED: mkfifo is not available here, so the named-pipe case is not tested')
      return
    }
    const started = Date.now()
    const result = await cli('run', fifo)
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(
      /cannot read the workflow file .*pipe\.wardflow\.json: it is a named pipe, not a file/,
    )
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('refuses /dev/zero and a directory without reading them', async () => {
    if (existsSync('/dev/zero')) {
      const zero = await cli('run', '/dev/zero')
      expect(zero.code).toBe(2)
      expect(zero.stderr).toContain('it is a device, not a file')
    }
    const folder = await cli('run', HELLO, '--script', dir)
    expect(folder.code).toBe(2)
    expect(folder.stderr).toContain(`cannot read the demo script ${dir}: it is a directory, not a file`)
  })

  it('refuses a file over the import limit by its size, before reading it', async () => {
    const big = join(dir, 'big.wardflow.json')
    await writeFile(big, '')
    await truncate(big, IMPORT_MAX_FILE_BYTES + 1)
    const result = await cli('run', big)
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/it is 20\.0 MB; the limit is 20\.0 MB/)
  })
})

describe('one decoder for every file, as in the browser', { timeout: 20_000 }, () => {
  it('decodes UTF-8 and UTF-16 (either order, with or without a BOM) to the same text', () => {
    const text = '{"name":"Ünïcode ✓ 🎉"}'
    expect(decodeTextFile(Buffer.from(text))).toBe(text)
    expect(decodeTextFile(Buffer.from(`\ufeff${text}`))).toBe(text)
    for (const order of ['le', 'be'] as const)
      for (const bom of [true, false]) expect(decodeTextFile(utf16(text, order, bom))).toBe(text)
  })

  it('runs a UTF-16 workflow file and a demo script with a BOM', async () => {
    const flow = join(dir, 'utf16.wardflow.json')
    await writeFile(flow, utf16(await readFile(HELLO, 'utf8'), 'le', true))
    const script = join(dir, 'bom.demo-script.json')
    await writeFile(script, `\ufeff${await readFile(SCRIPT, 'utf8')}`)
    const result = await cli('run', flow, '--script', script)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('answer: Wardflow runs prompt flows.')
  })
})

describe('a reply cut off in the middle', { timeout: 20_000 }, () => {
  let server: Server
  let baseUrl = ''
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        for (const content of ['Héllo 🎉🎉 ', 'wor'])
          res.write(`data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`)
        setTimeout(() => res.destroy(), 50)
      })
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  })
  afterAll(() => new Promise<void>((done) => server.close(() => done())))

  it('keeps the partial text as output and gives the error its own line, counting characters', async () => {
    const result = await cli('run', HELLO, '--base-url', baseUrl, '--model', 'm')
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(
      /── Model \(llm_1\) ──\nHéllo 🎉🎉 wor\n✗ Model \(llm_1\) failed \[PROVIDER_NETWORK\]: The connection to .* dropped in the middle of the reply.*, after 12 characters\./,
    )
    const json = await cli('run', HELLO, '--base-url', baseUrl, '--model', 'm', '--json')
    const events = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; nodeId?: string; text?: string; message?: string })
    const llm = events.filter((e) => e.nodeId === 'llm_1')
    expect(
      llm
        .filter((e) => e.type === 'nodeChunk')
        .map((e) => e.text)
        .join(''),
    ).toBe('Héllo 🎉🎉 wor')
    expect(llm.at(-1)).toMatchObject({
      type: 'nodeError',
      message: expect.stringContaining('after 12 characters'),
    })
  })
})
