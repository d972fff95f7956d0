/**
 * `wardflow --help` / `wardflow help [command]` / `wardflow <command> --help` through the real
 * bin (bin/wardflow.mjs): the overview names every command of src/cli with its flags, and each
 * command's page lists the flags its parser takes.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { COMMAND_NAMES } from '../../src/cli/help.ts'
import { wardflow } from '../support/wardflowCli.ts'

/** A command's own flags, each checked against its parser (manyArgs.ts's specs). */
function ownFlags(command: 'batch' | 'worker' | 'enqueue'): string[] {
  const source = readFileSync(new URL('../../src/cli/manyArgs.ts', import.meta.url), 'utf8')
  const queue = ['--redis', '--queue', '--result-ttl']
  const flags =
    command === 'batch'
      ? ['--data', '--concurrency', '--out']
      : command === 'worker'
        ? [...queue, '--concurrency', '--stalled-interval', '--lock-duration', '--shutdown-grace']
        : [...queue, '--data', '--wait', '--out']
  for (const flag of flags) expect(source).toContain(`'${flag}'`)
  return flags
}

// Each case spawns the bin (tsx compiles on start): seconds each on a shared 2-core machine.
describe('wardflow help', { timeout: 90_000 }, () => {
  it("lists every command, one line each, and points to each command's --help", async () => {
    const results = await Promise.all([['--help'], ['-h'], ['help']].map((argv) => wardflow(argv)))
    for (const result of results) {
      expect(result.code).toBe(0)
      expect(result.stderr).toBe('')
      for (const name of ['run', 'batch', 'test', 'worker', 'enqueue', 'help'])
        expect(result.stdout).toMatch(new RegExp(`^  ${name}\\b.* [A-Z][a-z]+ .*\\.$`, 'm'))
      expect(result.stdout).toContain('wardflow <command> --help')
      for (const flag of ownFlags('worker')) expect(result.stdout).toContain(flag)
    }
    expect(COMMAND_NAMES).toEqual(['run', 'batch', 'test', 'worker', 'enqueue', 'help'])
  })

  it('names every command src/cli dispatches', () => {
    const commands = readFileSync(new URL('../../src/cli/commands.ts', import.meta.url), 'utf8')
    const listed = /new Set\(\[([^\]]*)\]\)/.exec(commands)?.[1] ?? ''
    const names = [...listed.matchAll(/'([a-z]+)'/g)].map((m) => m[1])
    expect(names.length).toBeGreaterThan(0)
    for (const name of names) expect(COMMAND_NAMES).toContain(name)
  })

  it("prints each command's page for `<command> --help` and `help <command>`", async () => {
    for (const command of ['batch', 'worker', 'enqueue'] as const) {
      const [own, viaHelp] = await Promise.all([wardflow([command, '--help']), wardflow(['help', command])])
      expect(own.code).toBe(0)
      expect(own.stdout).toContain(`Usage: wardflow ${command}`)
      expect(viaHelp.stdout).toBe(own.stdout)
      for (const flag of ownFlags(command)) expect(own.stdout).toContain(flag)
    }
    const test = await wardflow(['test', '--help'])
    expect(test.code).toBe(0)
    expect(test.stdout).toContain('Usage: wardflow test <folder>')
    const run = await wardflow(['help', 'run'])
    expect(run.stdout).toContain('Usage: wardflow run')
    expect(run.stdout).toContain('--replay FILE')
  })

  it('names the commands when one is unknown', async () => {
    const result = await wardflow(['frobnicate'])
    expect(result.code).toBe(2)
    for (const name of ['run', 'batch', 'test', 'worker', 'enqueue']) expect(result.stderr).toContain(name)
  })
})
