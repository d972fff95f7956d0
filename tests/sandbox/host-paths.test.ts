/**
 * The Node runner's worker thread must load wherever the runner itself runs: vitest (every other
 * sandbox suite), `npx tsx` and the CLI's tsx register API. Each child process must also exit on
 * its own once the runs are done.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))
const TSX_CLI = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url))
// A child Node process with tsx takes a few seconds on a busy machine; a hang would hit this.
const CHILD_TIMEOUT_MS = 60_000
const expected = { ok: { result: 42, logs: ['hi'] }, timedOut: 'SANDBOX_TIMEOUT' }

describe('the Node runner outside vitest', () => {
  it(
    'works under the tsx CLI (npx tsx) and lets the process exit',
    { timeout: CHILD_TIMEOUT_MS },
    async () => {
      const { stdout } = await run(process.execPath, [TSX_CLI, fixture('tsx-run.ts')], {
        timeout: CHILD_TIMEOUT_MS,
      })
      expect(JSON.parse(stdout)).toEqual(expected)
    },
  )

  it(
    "works under tsx's register API, as bin/wardflow.mjs loads the CLI",
    { timeout: CHILD_TIMEOUT_MS },
    async () => {
      const { stdout } = await run(process.execPath, [fixture('tsx-register.mjs')], {
        timeout: CHILD_TIMEOUT_MS,
      })
      expect(JSON.parse(stdout)).toEqual(expected)
    },
  )
})
