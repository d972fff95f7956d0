/** The real CLI, spawned as `npx wardflow` would run it, for the tests in tests/cli/. */
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import type { RunEvent } from '../../src/engine/index.ts'

/** The repository root: the CLI runs from there. */
export const ROOT = resolve(import.meta.dirname, '../..')

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `node bin/wardflow.mjs ...args` from the repo root, without colours. */
export function wardflow(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
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
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}

/** The events `--json` printed, one JSON object a line. */
export function jsonLines(stdout: string): RunEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RunEvent)
}
