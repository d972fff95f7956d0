/**
 * `wardflow run <flow.json>`: loads a workflow file, runs it with the same engine as the app,
 * and prints the events (readable, or one JSON object per line with --json).
 * Exit codes: 0 success, 1 a node failed, 2 bad input, 130 stopped with Ctrl-C.
 */
import { cliLimits, cliPricing } from './pricing.ts'
import { createSchemaValidator } from '../platform/schemaValidator.ts'
import { readFileSync } from 'node:fs'
import {
  defaultProtection,
  EventScrubber,
  runFlow,
  type FlowDocument,
  type RunContext,
  type RunEvent,
  type SharedRunBudget,
} from '../engine/run.ts'
import { engineRegistry, nodeCatalog } from '../nodes/registry.ts'
import { systemClock } from '../platform/systemClock.ts'
import { createProviderResolver } from '../providers/resolver.ts'
import { loadTokenEstimator } from '../providers/tokens.ts'
import { createNodeCodeRunner } from '../sandbox/node-runner.ts'
import type { SandboxCodeRunner } from '../sandbox/pool.ts'
import { DEMO_PROVIDER } from '../settings/schema.ts'
import { parseArgs, type RunOptions } from './args.ts'
import { helpText } from './help.ts'
import { cliApprovalPort, type TerminalIo } from './approval.ts'
import { cliEmbedder, loadCliKnowledge } from './knowledge.ts'
import { cliMcp } from './mcp.ts'
import { BadInput, loadOverride, loadWorkflow, siteRelativeUrls, unusedInputs } from './load.ts'
import { Output } from './output.ts'
import { ansiStyle, HumanPrinter } from './printer.ts'
import { cliSecrets } from './secrets.ts'
import { jsonLine, oneLine } from './terminalText.ts'
import { isManyRunsCommand, manyRunsCommand, reportThrown } from './commands.ts'
import { OutcomeCollector } from '../cassette/outcome.ts'
import { openTape, type Tape } from './tapeFile.ts'
import type { LoadedWorkflow } from './load.ts'
import { exportTrace } from './trace.ts'

export const EXIT_OK = 0
export const EXIT_NODE_FAILED = 1
export const EXIT_BAD_INPUT = 2
export const EXIT_INTERRUPTED = 130

/** Where the CLI writes; tests may pass their own. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream
  env: NodeJS.ProcessEnv
  /** Where approval questions are answered (a terminal); absent: process.stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean }
}

const defaultIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env })

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: unknown
  }
  return typeof pkg.version === 'string' ? pkg.version : 'unknown'
}

/** Runs the CLI and resolves with its exit code; never throws. */
export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  // batch, test, worker, enqueue: each in its own file (commands.ts).
  if (isManyRunsCommand(argv[0])) return manyRunsCommand(argv, io)
  const args = parseArgs(argv)
  const out = new Output(io.stdout)
  const err = new Output(io.stderr)
  let code: number
  try {
    if (args.command === 'help') {
      // `wardflow run ... --help`: run's page; `wardflow --help`, `wardflow help [command]`: the list or that page.
      out.write(`${helpText(argv[0] === 'help' ? argv[1] : argv[0] === 'run' ? 'run' : undefined)}\n`)
      code = EXIT_OK
    } else if (args.command === 'version') {
      out.write(`wardflow ${version()}\n`)
      code = EXIT_OK
    } else if (args.command === 'error') {
      err.write(`wardflow: ${oneLine(args.reason)}\n`)
      code = EXIT_BAD_INPUT
    } else {
      code = await run(args, {
        out,
        err,
        env: io.env,
        color: io.stdout.isTTY === true && !io.env['NO_COLOR'],
        terminal: { input: io.stdin ?? process.stdin, output: io.stderr },
      })
    }
  } catch (error) {
    code = reportThrown(error, err)
  }
  await Promise.all([out.flush(), err.flush()])
  return code
}

export interface RunIo {
  out: Output
  err: Output
  env: NodeJS.ProcessEnv
  color: boolean
  terminal: TerminalIo
}

/** What a command running many runs changes about each (batch, worker, test: commands.ts). */
export interface RunHooks {
  /** The workflow, loaded once for all runs. */
  loaded?: LoadedWorkflow
  runId?: string
  /** Stops this run (instead of Ctrl-C, which the command handles). */
  signal?: AbortSignal
  /** Every event, scrubbed; nothing is printed then. */
  onEvent?: (event: RunEvent) => void
  /** A tape shared by the runs (instead of --record / --replay of the options). */
  tape?: Tape
  /** The whole-run budget shared by the runs of a batch (their one ledger). */
  sharedBudget?: SharedRunBudget
}

/** What a cassette records of a run of `doc` (its Output nodes looked up once, not per event). */
export function outcomeCollector(doc: FlowDocument): OutcomeCollector {
  const outputs = new Set(doc.nodes.filter((n) => nodeCatalog.role(n.type) === 'flowOutput').map((n) => n.id))
  return new OutcomeCollector((id) => outputs.has(id))
}

export async function run(options: RunOptions, io: RunIo, hooks: RunHooks = {}): Promise<number> {
  const { doc, flows, subflows, warnings } = hooks.loaded ?? (await loadWorkflow(options.file))
  // What runs is the flow and the flows it carries: each is checked for what the CLI refuses
  // (site-relative URLs) and for the secrets it must never print.
  const everything = { ...doc, nodes: [...doc.nodes, ...subflows.flatMap((f) => f.nodes)] }
  const siteRelative = options.siteBase === undefined ? siteRelativeUrls(everything)[0] : undefined
  if (siteRelative) {
    throw new BadInput(
      `node "${siteRelative.nodeId}" requests "${siteRelative.url}", relative to the site Wardflow is served from: pass --site-base URL (e.g. --site-base https://you.github.io/wardflow/).`,
    )
  }
  const override = await loadOverride(options, io.env)
  // Bases are built before the run, so a missing folder is bad input (exit 2), not a node failure.
  const knowledge =
    Object.keys(options.knowledge).length === 0
      ? undefined
      : await loadCliKnowledge(
          options.knowledge,
          cliEmbedder(options, override?.kind === 'openai' ? override.apiKey : undefined),
          (input, init) => fetch(input, init),
        )
  // No configured key is printed, whether a server echoes it or a node's output quotes it.
  // `--otlp-header` values (a collector's token) likewise.
  const secrets = [...cliSecrets(everything, override, options.inputs), ...Object.values(options.otlpHeaders)]
  io.out.scrub(secrets)
  io.err.scrub(secrets)
  // A command running many runs hands the flow it loaded once: no warnings per run.
  if (hooks.loaded === undefined) {
    for (const warning of warnings) io.err.write(`wardflow: warning: ${oneLine(warning)}\n`)
    for (const name of unusedInputs(doc, options.inputs))
      io.err.write(`wardflow: warning: --input ${oneLine(name)} matches no Input node value\n`)
  }

  const controller = new AbortController()
  const onSigint = (): void => controller.abort()
  if (hooks.signal === undefined) process.once('SIGINT', onSigint)
  else if (hooks.signal.aborted) controller.abort()
  else hooks.signal.addEventListener('abort', onSigint, { once: true })
  const tape = hooks.tape ?? (await openTape(options))
  const outcome = outcomeCollector(doc)
  // A reader that went away (`wardflow run f.json | head`) stops the run.
  io.out.whenClosed(() => controller.abort())
  // The sandbox starts worker threads, so it is only created once a node actually runs code.
  let sandbox: SandboxCodeRunner | undefined
  const mcp = cliMcp(options.mcp, version())
  const runLimitsOverride = cliLimits(options)
  const ctx: RunContext = {
    runId: hooks.runId ?? `run_${systemClock.now().toString(36)}`,
    clock: systemClock,
    fetch: tape.fetch((input, init) => fetch(input, init)),
    codeRunner: { run: (request) => (sandbox ??= createNodeCodeRunner()).run(request) },
    providers: tape.providers(
      createProviderResolver({
        getSettings: { providers: [{ ...DEMO_PROVIDER }], defaultProviderId: DEMO_PROVIDER.id },
        fetch: (input, init) => fetch(input, init),
        clock: systemClock,
        override,
      }),
    ),
    estimateTokens: await loadTokenEstimator(),
    validator: createSchemaValidator(),
    signal: controller.signal,
    protection: defaultProtection(),
    inputs: options.inputs,
    baseUrl: options.siteBase,
    flows,
    ...(knowledge === undefined ? {} : { knowledge }),
    ...(mcp === undefined ? {} : { mcp }),
    pricing: await cliPricing(override),
    ...(runLimitsOverride ? { runLimitsOverride } : {}),
    ...(hooks.sharedBudget ? { sharedBudget: hooks.sharedBudget } : {}),
  }
  const printer = new HumanPrinter(doc, (text) => io.out.write(text), io.color ? ansiStyle() : undefined)
  const terminal = { ...io.terminal, say: (text: string) => io.err.write(text) }
  ctx.approval = cliApprovalPort(options.approve, terminal, (id) => printer.nodeName(id))

  let status: string | undefined
  const scrubber = new EventScrubber(secrets)
  const tracing = options.trace !== undefined || options.otlp !== undefined
  const kept: RunEvent[] = []
  const print = (event: RunEvent): void => {
    outcome.push(event)
    if (tracing) kept.push(event)
    if (hooks.onEvent) hooks.onEvent(event)
    else if (options.json) io.out.write(jsonLine(event))
    else printer.print(event)
    if (event.type === 'runFinish') status = event.status
  }
  try {
    for await (const event of runFlow(doc, engineRegistry, ctx)) scrubber.push(event).forEach(print)
  } finally {
    scrubber.end().forEach(print)
    process.removeListener('SIGINT', onSigint)
    hooks.signal?.removeEventListener('abort', onSigint)
    io.out.whenClosed(undefined)
    sandbox?.dispose()
    await mcp?.close()
  }
  await tape.save(options.inputs, outcome.expectation(), secrets)
  const problems = await exportTrace(kept, {
    options,
    docs: [doc, ...subflows],
    secrets,
    version: version(),
    fetch: (input, init) => fetch(input, init),
  })
  for (const problem of problems) io.err.write(`wardflow: ${oneLine(problem)}\n`)
  if (status === 'success') return problems.length > 0 ? EXIT_NODE_FAILED : EXIT_OK
  if (status === 'cancelled') return EXIT_INTERRUPTED
  return EXIT_NODE_FAILED
}
