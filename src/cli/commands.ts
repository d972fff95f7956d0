/**
 * The commands that run many runs, each in its own file and loaded on first use (BullMQ and
 * its Redis client load only for `worker` and `enqueue`): batch.ts, test.ts, worker.ts,
 * enqueue.ts. Same rules as `run`: exit 0 success, 1 a failure of the work, 2 bad input.
 */
import { toFlowError } from '../engine/index.ts'
import { BadInput } from './load.ts'
import type { CliIo, RunIo } from './main.ts'
import { helpText } from './help.ts'
import { parseManyRunsArgs } from './manyArgs.ts'
import { PassThrough } from 'node:stream'
import { Output } from './output.ts'
import { oneLine } from './terminalText.ts'

const COMMANDS = new Set(['batch', 'test', 'worker', 'enqueue'])

export function isManyRunsCommand(command: string | undefined): boolean {
  return command !== undefined && COMMANDS.has(command)
}

export async function manyRunsCommand(argv: readonly string[], cli: CliIo): Promise<number> {
  const out = new Output(cli.stdout)
  const err = new Output(cli.stderr)
  // Many runs never stop to ask on a terminal: approvals follow --approve (default: declined).
  const io: RunIo = {
    out,
    err,
    env: cli.env,
    color: false,
    terminal: { input: new PassThrough(), output: cli.stderr },
  }
  const args = parseManyRunsArgs(argv)
  let code: number
  try {
    switch (args.command) {
      case 'error':
        err.write(`wardflow: ${oneLine(args.reason)}\n`)
        code = 2
        break
      case 'help':
        out.write(`${helpText(args.of)}\n`)
        code = 0
        break
      case 'batch':
        code = await (
          await import('./batch.ts')
        ).batchCommand(args, io, (cli.stderr as { isTTY?: boolean }).isTTY === true)
        break
      case 'test':
        code = await (await import('./test.ts')).testCommand(args, io)
        break
      case 'worker':
        code = await (await import('./worker.ts')).workerCommand(args, io)
        break
      case 'enqueue':
        code = await (await import('./enqueue.ts')).enqueueCommand(args, io)
        break
    }
  } catch (error) {
    code = reportThrown(error, err)
  }
  await Promise.all([out.flush(), err.flush()])
  return code
}

/** Words what a command threw on stderr: exit 2 for bad input (with its notes), else 1. */
export function reportThrown(error: unknown, err: Output): number {
  if (error instanceof BadInput)
    for (const note of error.notes) err.write(`wardflow: warning: ${oneLine(note)}\n`)
  const reason =
    error instanceof BadInput ? error.message : `unexpected failure: ${toFlowError(error).message}`
  err.write(`wardflow: ${oneLine(reason)}\n`)
  return error instanceof BadInput ? 2 : 1
}
