/**
 * The CLI's answer to Agent tool calls that ask for approval (flow-control.md): `--approve all`
 * approves and `--approve none` declines every such call (`by: "policy"`); without the flag a
 * terminal is asked (y / n / a = always for this tool in this run), and anything else (a pipe, a
 * CI job) declines. Questions go to stderr, one at a time, with the tool and its arguments made
 * safe to print (terminalText.ts); a question whose wait ended (timeout, Ctrl-C) is withdrawn.
 */
import { createInterface } from 'node:readline/promises'
import { APPROVAL_PROMPT_MAX_CHARS } from '../defaults.ts'
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest } from '../engine/index.ts'
import { oneLine } from './terminalText.ts'

export type ApproveMode = 'all' | 'none'

export interface TerminalIo {
  input: NodeJS.ReadableStream & { isTTY?: boolean }
  /** Where the prompt is written (stderr: stdout may be --json or a file). */
  output: NodeJS.WritableStream
  /** Writes the question lines, with configured secrets scrubbed (default: `output`). */
  say?(text: string): void
}

/** The arguments as one printable line, cut at APPROVAL_PROMPT_MAX_CHARS. */
export function argumentsLine(args: unknown): string {
  let text: string
  try {
    text = JSON.stringify(args) ?? String(args)
  } catch {
    text = String(args)
  }
  const cut = text.length > APPROVAL_PROMPT_MAX_CHARS
  return oneLine(
    cut
      ? `${text.slice(0, APPROVAL_PROMPT_MAX_CHARS)}… (${text.length - APPROVAL_PROMPT_MAX_CHARS} more characters)`
      : text,
  )
}

/** y/yes, n/no (or nothing: the safe answer), a/always; undefined: ask again. */
export function readAnswer(line: string): ApprovalAnswer | undefined {
  const word = line.trim().toLowerCase()
  if (word === 'y' || word === 'yes') return { decision: 'approved', by: 'user' }
  if (word === 'a' || word === 'always') return { decision: 'approved', by: 'user', always: true }
  if (word === '' || word === 'n' || word === 'no') return { decision: 'rejected', by: 'user' }
  return undefined
}

/** The port of a CLI run. `name(nodeId)` words a node for the question. */
export function cliApprovalPort(
  mode: ApproveMode | undefined,
  terminal: TerminalIo,
  name: (nodeId: string) => string,
): ApprovalPort {
  if (mode === 'all') return { ask: async () => ({ decision: 'approved', by: 'policy' }) }
  if (mode === 'none' || terminal.input.isTTY !== true)
    return { ask: async () => ({ decision: 'rejected', by: 'policy' }) }
  // Agents running side by side ask in turn: one question on the terminal at a time.
  let queue: Promise<unknown> = Promise.resolve()
  return {
    ask(request, signal) {
      const next = queue.then(() => askTerminal(request, signal, terminal, name))
      queue = next.catch(() => undefined)
      return next
    },
  }
}

async function askTerminal(
  request: ApprovalRequest,
  signal: AbortSignal,
  terminal: TerminalIo,
  name: (nodeId: string) => string,
): Promise<ApprovalAnswer> {
  const rl = createInterface({ input: terminal.input, output: terminal.output, terminal: true })
  // Ctrl-C at the question stops the run, as it does anywhere else.
  rl.on('SIGINT', () => process.emit('SIGINT'))
  const say = terminal.say ?? ((text: string) => void terminal.output.write(text))
  try {
    say(
      `\n? ${name(request.nodeId)} wants to call ${oneLine(request.tool)} with ${argumentsLine(request.args)}\n`,
    )
    for (;;) {
      const line = await rl.question('  Allow it? [y]es / [n]o / [a]lways for this tool in this run: ', {
        signal,
      })
      const answer = readAnswer(line)
      if (answer) return answer
    }
  } catch (error) {
    // The wait ended (timeout or Stop): the engine has its answer already.
    if (signal.aborted) say('\n  (no answer)\n')
    throw error
  } finally {
    rl.close()
  }
}
