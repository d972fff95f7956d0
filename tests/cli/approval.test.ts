/**
 * Approval in the CLI (flow-control.md, "MCP tools and approval"): `--approve all|none`, the
 * default without a terminal (declined), a real pseudo-terminal (util-linux `script`) answered
 * y / n / a, and the terminal port itself with a stream that says it is a TTY.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { parseArgs } from '../../src/cli/args.ts'
import { argumentsLine, cliApprovalPort, readAnswer } from '../../src/cli/approval.ts'
import { APPROVAL_PROMPT_MAX_CHARS } from '../../src/defaults.ts'
import type { RunEvent } from '../../src/engine/index.ts'
import { jsonLines, ROOT, wardflow } from '../support/wardflowCli.ts'

const FLOW = 'tests/fixtures/cli/approval.wardflow.json'
const DECLINED = 'Observation: The user declined this call.'

const decisions = (events: RunEvent[]) =>
  events.flatMap((e) => (e.type === 'approvalDecision' ? [[e.callId, e.decision, e.by]] : []))
const observations = (events: RunEvent[]) => {
  const finish = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'agent')
  const calls =
    finish?.type === 'nodeFinish' ? (finish.output['toolCalls'] as Array<{ observation: string }>) : []
  return calls.map((c) => c.observation)
}

describe('wardflow run --approve', { timeout: 60_000 }, () => {
  it('parses all and none, and refuses anything else', () => {
    expect(parseArgs(['run', 'f.json', '--approve', 'all'])).toMatchObject({ approve: 'all' })
    expect(parseArgs(['run', 'f.json', '--approve=none'])).toMatchObject({ approve: 'none' })
    expect(parseArgs(['run', 'f.json'])).not.toHaveProperty('approve')
    expect(parseArgs(['run', 'f.json', '--approve', 'some'])).toEqual({
      command: 'error',
      reason: '--approve expects "all" or "none", got "some".',
    })
  })

  it('--approve all runs every asked call (by policy)', async () => {
    const result = await wardflow(['run', FLOW, '--approve', 'all', '--json'])
    expect(result.code).toBe(0)
    const events = jsonLines(result.stdout)
    expect(events.filter((e) => e.type === 'approvalRequest')).toMatchObject([
      { nodeId: 'agent', callId: 'call_1', tool: 'delete_order', args: { id: 'A-1' } },
      { nodeId: 'agent', callId: 'call_2', tool: 'delete_order', args: { id: 'A-2\u001b[2J' } },
    ])
    expect(decisions(events)).toEqual([
      ['call_1', 'approved', 'policy'],
      ['call_2', 'approved', 'policy'],
    ])
    expect(observations(events)).toEqual(['deleted A-1', 'deleted A-2\u001b[2J'])
  })

  it('--approve none declines them; so does a run without a terminal, and the log says so safely', async () => {
    const none = await wardflow(['run', FLOW, '--approve', 'none', '--json'])
    expect(none.code).toBe(0)
    expect(decisions(jsonLines(none.stdout))).toEqual([
      ['call_1', 'rejected', 'policy'],
      ['call_2', 'rejected', 'policy'],
    ])
    expect(observations(jsonLines(none.stdout))).toEqual([DECLINED, DECLINED])

    const piped = await wardflow(['run', FLOW])
    expect(piped.code).toBe(0)
    expect(piped.stdout).toContain('⏸ Cleaner (agent) waits for approval: delete_order {"id":"A-1"}')
    expect(piped.stdout).toContain('✗ Cleaner (agent): call declined (by policy)')
    expect(piped.stdout).not.toContain('\u001b')
    expect(piped.stderr).not.toContain('Allow it?')
  })
})

/** Runs the CLI on a pseudo-terminal, typing `answers` one per question. */
function onTerminal(args: string[], answers: string[]): Promise<{ code: number | null; text: string }> {
  const command = ['node', 'bin/wardflow.mjs', ...args].join(' ')
  return new Promise((done, fail) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let text = ''
    let asked = 0
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const questions = text.split('Allow it?').length - 1
      while (asked < questions) child.stdin.write(`${answers[asked++] ?? 'n'}\n`)
    })
    child.on('error', fail)
    child.on('close', (code) => done({ code, text }))
  })
}

describe.runIf(existsSync('/usr/bin/script'))('wardflow run on a terminal', { timeout: 60_000 }, () => {
  it('asks y/n with the tool and the arguments, escaped; y runs the call, n declines it', async () => {
    const { code, text } = await onTerminal(['run', FLOW, '--json'], ['y', 'n'])
    expect(code).toBe(0)
    expect(text).toContain('? Cleaner (agent) wants to call delete_order with {"id":"A-1"}')
    // The ESC in the model's arguments is printed as text, not sent to the terminal.
    expect(text).toContain('{"id":"A-2\\u001b[2J"}')
    const events = jsonLines(
      text
        .split(/\r?\n/)
        .filter((line) => line.startsWith('{'))
        .join('\n'),
    )
    expect(decisions(events)).toEqual([
      ['call_1', 'approved', 'user'],
      ['call_2', 'rejected', 'user'],
    ])
    expect(observations(events)).toEqual(['deleted A-1', DECLINED])
  })

  it('a = always for this tool: the next call is approved without a question', async () => {
    const { code, text } = await onTerminal(['run', FLOW, '--json'], ['a'])
    expect(code).toBe(0)
    expect(text.split('Allow it?')).toHaveLength(2)
    const events = jsonLines(
      text
        .split(/\r?\n/)
        .filter((line) => line.startsWith('{'))
        .join('\n'),
    )
    expect(decisions(events)).toEqual([
      ['call_1', 'approved', 'user'],
      ['call_2', 'approved', 'policy'],
    ])
  })

  it('--approve on a terminal asks nothing', async () => {
    const { text } = await onTerminal(['run', FLOW, '--approve', 'none'], [])
    expect(text).not.toContain('Allow it?')
    expect(text).toContain('call declined (by policy)')
  })
})

describe('the terminal port', () => {
  const request = { runId: 'r', nodeId: 'agent', callId: 'c1', tool: 'delete_order', args: { id: 'A-1' } }

  it('reads y, n, a and an empty line (no), and asks again after anything else', async () => {
    expect(readAnswer(' Y ')).toEqual({ decision: 'approved', by: 'user' })
    expect(readAnswer('always')).toEqual({ decision: 'approved', by: 'user', always: true })
    expect(readAnswer('')).toEqual({ decision: 'rejected', by: 'user' })
    expect(readAnswer('maybe')).toBeUndefined()
    const input = Object.assign(new PassThrough(), { isTTY: true })
    const output = new PassThrough()
    // Each answer is typed once its question is on the screen, as a person would.
    const typed = ['maybe', 'no']
    let prompts = 0
    output.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('Allow it?')) return
      const line = typed[prompts++]
      if (line !== undefined) setImmediate(() => input.write(`${line}\n`))
    })
    let said = ''
    const port = cliApprovalPort(undefined, { input, output, say: (t) => (said += t) }, (id) => `Node ${id}`)
    expect(await port.ask(request, new AbortController().signal)).toEqual({
      decision: 'rejected',
      by: 'user',
    })
    expect(prompts).toBe(2)
    expect(said).toContain('? Node agent wants to call delete_order with {"id":"A-1"}')
  })

  it('withdraws the question when the wait ends', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true })
    let said = ''
    const port = cliApprovalPort(
      undefined,
      { input, output: new PassThrough(), say: (t) => (said += t) },
      (id) => id,
    )
    const wait = new AbortController()
    const answer = port.ask(request, wait.signal)
    wait.abort()
    await expect(answer).rejects.toThrow()
    expect(said).toContain('(no answer)')
  })

  it('without a terminal (and with --approve) answers by policy', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: false })
    const io = { input, output: new PassThrough() }
    const signal = new AbortController().signal
    expect(await cliApprovalPort(undefined, io, String).ask(request, signal)).toEqual({
      decision: 'rejected',
      by: 'policy',
    })
    expect(await cliApprovalPort('all', io, String).ask(request, signal)).toEqual({
      decision: 'approved',
      by: 'policy',
    })
  })

  it('prints the arguments on one line, escaped and cut', () => {
    expect(argumentsLine({ a: 'x\u0007\u009b' })).toBe('{"a":"x\\u0007\\x9b"}')
    const long = argumentsLine({ a: 'z'.repeat(APPROVAL_PROMPT_MAX_CHARS * 2) })
    expect(long.length).toBeLessThan(APPROVAL_PROMPT_MAX_CHARS + 40)
    expect(long).toMatch(/… \(\d+ more characters\)$/)
  })
})
