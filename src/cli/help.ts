/**
 * What `wardflow --help` / `wardflow help [command]` / `wardflow <command> --help` print: every
 * command with one line and its own flags, then each command's page. `run`'s page (all the run
 * flags, which batch, test and worker also take) stays in args.ts beside its parser.
 */
import {
  BATCH_CONCURRENCY,
  BATCH_CONCURRENCY_RANGE,
  QUEUE_DEFAULT_NAME,
  QUEUE_RESULT_TTL_RANGE_S,
  QUEUE_RESULT_TTL_S,
  WORKER_CONCURRENCY,
  WORKER_CONCURRENCY_RANGE,
  WORKER_LOCK_DURATION_MS,
  WORKER_SHUTDOWN_GRACE_MS,
  WORKER_STALLED_INTERVAL_MS,
} from '../defaults.ts'
import { USAGE } from './args.ts'

/** The commands, in the order the overview lists them. */
export const COMMAND_NAMES = ['run', 'batch', 'test', 'worker', 'enqueue', 'help'] as const
export type CommandName = (typeof COMMAND_NAMES)[number]

const RESULT_TTL = `  --result-ttl S         Keep each stored result S seconds (default ${QUEUE_RESULT_TTL_S}, from
                         ${QUEUE_RESULT_TTL_RANGE_S.min} to ${QUEUE_RESULT_TTL_RANGE_S.max}).`

const QUEUE = `  --redis URL            The Redis holding the queue (redis://host:port or rediss://), required.
  --queue NAME           The BullMQ queue's name (default "${QUEUE_DEFAULT_NAME}").
${RESULT_TTL}`

const PAGES: Record<Exclude<CommandName, 'run' | 'help'>, string> = {
  batch: `Usage: wardflow batch <flow.wardflow.json> --data <rows.csv|rows.jsonl> [options]

Runs the flow once per row; each column sets the Input values with that key.

Options:
  --data FILE            The rows: a CSV file with a header line, or JSON Lines (required).
  --concurrency N        Rows run at once (default ${BATCH_CONCURRENCY}, from ${BATCH_CONCURRENCY_RANGE.min} to ${BATCH_CONCURRENCY_RANGE.max}).
  --out FILE             One JSON line per row, in row order.
  Every option of "wardflow run" (see "wardflow run --help"). Approvals are declined unless
  --approve all. --max-run-tokens / --max-run-cost-usd (or the flow's metadata.limits) bound
  the batch as a whole: the call that crosses them stops the rows running and skips the rest.`,
  test: `Usage: wardflow test <folder> [--json]

Replays every *.wardflow.json of the folder beside its *.cassette.json (no network, the inputs
it was recorded with) and says what changed: status, outputs and guard events.
Exit 0 all match, 1 a difference, 2 bad input.

Options:
  --json                 One JSON line per flow.`,
  worker: `Usage: wardflow worker --redis <url> [options]

Takes run jobs from a BullMQ queue in Redis and stores each job's result once. Stop it with
SIGTERM: it finishes or hands back the jobs it holds.

Options:
${QUEUE}
  --concurrency N        Jobs run at once (default ${WORKER_CONCURRENCY}, from ${WORKER_CONCURRENCY_RANGE.min} to ${WORKER_CONCURRENCY_RANGE.max}).
  --stalled-interval MS  How often a stalled job (its worker died) is handed back (default ${WORKER_STALLED_INTERVAL_MS}).
  --lock-duration MS     How long a job's lock lasts without renewal (default ${WORKER_LOCK_DURATION_MS}).
  --shutdown-grace MS    On SIGTERM, how long running jobs may finish (default ${WORKER_SHUTDOWN_GRACE_MS}).
  Every option of "wardflow run" but --record: the provider flags and keys are the worker's.`,
  enqueue: `Usage: wardflow enqueue <flow.wardflow.json> --redis <url> [options]

Puts one run job per --data row (or one for the --input values) on the queue. Job id = run id.

Options:
${QUEUE}
  --input key=value      An Input node value of every job (repeatable).
  --data FILE            One job per row of a CSV or JSON Lines file.
  --wait                 Wait for every result and print them in "batch --out"'s shape.
  --out FILE             With --wait: write the results there instead.`,
}

/** The overview: every command, one line each, with its own flags. */
export const OVERVIEW = `Usage: wardflow <command> [options]

Commands:
  run <flow>             Run a workflow file headless and print what its nodes do.
                         --input, --script, --base-url, --model, --api-key-env, --knowledge,
                         --mcp, --approve, --record, --replay, --trace, --otlp, --json...
  batch <flow>           Run the flow once per row of a CSV or JSONL file.
                         --data, --concurrency, --out, and run's options.
  test <folder>          Replay each flow beside its cassette and say what changed.
                         --json.
  worker                 Take run jobs from a BullMQ queue in Redis; store each result once.
                         --redis, --queue, --concurrency, --stalled-interval, --lock-duration,
                         --shutdown-grace, --result-ttl, and run's options.
  enqueue <flow>         Put one job per row (or one) on the queue; --wait for the results.
                         --redis, --queue, --input, --data, --wait, --out, --result-ttl.
  help [command]         Show this list, or a command's options.

Run "wardflow <command> --help" (or "wardflow help <command>") for a command's options.
  -h, --help             Show this help.
  --version              Show the version.`

/** The page of `topic`, or the overview when there is none (or it names no command). */
export function helpText(topic?: string): string {
  if (topic === 'run') return USAGE
  if (topic !== undefined && topic in PAGES) return PAGES[topic as keyof typeof PAGES]
  return OVERVIEW
}
