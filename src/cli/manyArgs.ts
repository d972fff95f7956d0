/**
 * Command lines of the commands that run many runs: `batch`, `test`, `worker`, `enqueue`. Each
 * takes its own flags; what is left is read by `run`'s parser (args.ts), so every flag of `run`
 * works for them too. Pure: returns what to do or why the line is wrong.
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
  WORKER_LOCK_DURATION_RANGE_MS,
  WORKER_SHUTDOWN_GRACE_MS,
  WORKER_SHUTDOWN_GRACE_RANGE_MS,
  WORKER_STALLED_INTERVAL_MS,
  WORKER_STALLED_INTERVAL_RANGE_MS,
  type NumberRange,
} from '../defaults.ts'
import { parseArgs, type RunOptions } from './args.ts'

export interface BatchOptions {
  command: 'batch'
  run: RunOptions
  data: string
  concurrency: number
  out?: string
}

export interface TestOptions {
  command: 'test'
  folder: string
  json: boolean
}

export interface QueueConnection {
  redis: string
  queue: string
}

export interface WorkerOptions extends QueueConnection {
  command: 'worker'
  /** The run flags every job runs with (providers, --site-base, --knowledge…), no flow file. */
  run: RunOptions
  concurrency: number
  stalledIntervalMs: number
  lockDurationMs: number
  shutdownGraceMs: number
  resultTtlS: number
}

export interface EnqueueOptions extends QueueConnection {
  command: 'enqueue'
  file: string
  inputs: Record<string, string>
  data?: string
  wait: boolean
  out?: string
  resultTtlS: number
}

export type ManyRunsArgs =
  | BatchOptions
  | TestOptions
  | WorkerOptions
  | EnqueueOptions
  | { command: 'help'; of: 'batch' | 'test' | 'worker' | 'enqueue' }
  | { command: 'error'; reason: string }

type Spec = Record<string, 'value' | 'flag'>

/** Splits the command's own flags from the rest (kept in order for args.ts). */
function takeOwn(argv: readonly string[], spec: Spec): { own: Map<string, string>; rest: string[] } | string {
  const own = new Map<string, string>()
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1
    const name = eq > 0 ? arg.slice(0, eq) : arg
    const kind = spec[name]
    if (kind === undefined) {
      rest.push(arg)
      continue
    }
    if (kind === 'flag') {
      own.set(name, 'true')
      continue
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined) return `${name} needs a value.`
    own.set(name, value)
  }
  return { own, rest }
}

function integer(
  own: Map<string, string>,
  name: string,
  fallback: number,
  range: NumberRange,
): number | string {
  const raw = own.get(name)
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < range.min || value > range.max)
    return `${name} expects a whole number from ${range.min} to ${range.max}, got "${raw}".`
  return value
}

function redisUrl(own: Map<string, string>): string {
  const url = own.get('--redis')
  if (url === undefined) return ''
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'redis:' || parsed.protocol === 'rediss:' ? url : ''
  } catch {
    return ''
  }
}

const QUEUE_SPEC: Spec = { '--redis': 'value', '--queue': 'value', '--result-ttl': 'value' }

export function parseManyRunsArgs(argv: readonly string[]): ManyRunsArgs {
  const [command, ...rest] = argv
  const error = (reason: string): ManyRunsArgs => ({ command: 'error', reason })
  const spec: Spec =
    command === 'batch'
      ? { '--data': 'value', '--concurrency': 'value', '--out': 'value' }
      : command === 'test'
        ? {}
        : command === 'worker'
          ? {
              ...QUEUE_SPEC,
              '--concurrency': 'value',
              '--stalled-interval': 'value',
              '--lock-duration': 'value',
              '--shutdown-grace': 'value',
            }
          : { ...QUEUE_SPEC, '--data': 'value', '--wait': 'flag', '--out': 'value' }
  const taken = takeOwn(rest, spec)
  if (typeof taken === 'string') return error(taken)
  const { own } = taken
  if (command === 'test') {
    const parsed = parseArgs(['run', ...taken.rest, '--replay', '-'])
    if (parsed.command === 'help') return { command: 'help', of: 'test' }
    if (parsed.command !== 'run') return parsed.command === 'error' ? parsed : error('unexpected option.')
    return { command: 'test', folder: parsed.file, json: parsed.json }
  }
  // A worker has no flow of its own: a stand-in file name lets args.ts read the other flags.
  const runArgv = command === 'worker' ? ['run', ...taken.rest, '(job)'] : ['run', ...taken.rest]
  const run = parseArgs(runArgv)
  if (run.command === 'help')
    return { command: 'help', of: command === 'batch' || command === 'worker' ? command : 'enqueue' }
  if (run.command !== 'run') return run.command === 'error' ? run : error('unexpected option.')
  if (command === 'batch') {
    const data = own.get('--data')
    if (data === undefined) return error('batch needs --data rows.csv or --data rows.jsonl.')
    const concurrency = integer(own, '--concurrency', BATCH_CONCURRENCY, BATCH_CONCURRENCY_RANGE)
    if (typeof concurrency === 'string') return error(concurrency)
    const out = own.get('--out')
    return { command: 'batch', run, data, concurrency, ...(out === undefined ? {} : { out }) }
  }
  const redis = redisUrl(own)
  if (redis === '')
    return error(`${command} needs --redis redis://host:port (got "${own.get('--redis') ?? ''}").`)
  const queue = own.get('--queue') ?? QUEUE_DEFAULT_NAME
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(queue))
    return error(`--queue expects letters, digits, - and _, got "${queue}".`)
  const resultTtlS = integer(own, '--result-ttl', QUEUE_RESULT_TTL_S, QUEUE_RESULT_TTL_RANGE_S)
  if (typeof resultTtlS === 'string') return error(resultTtlS)
  if (command === 'worker') {
    const numbers = {
      concurrency: integer(own, '--concurrency', WORKER_CONCURRENCY, WORKER_CONCURRENCY_RANGE),
      stalledIntervalMs: integer(
        own,
        '--stalled-interval',
        WORKER_STALLED_INTERVAL_MS,
        WORKER_STALLED_INTERVAL_RANGE_MS,
      ),
      lockDurationMs: integer(own, '--lock-duration', WORKER_LOCK_DURATION_MS, WORKER_LOCK_DURATION_RANGE_MS),
      shutdownGraceMs: integer(
        own,
        '--shutdown-grace',
        WORKER_SHUTDOWN_GRACE_MS,
        WORKER_SHUTDOWN_GRACE_RANGE_MS,
      ),
    }
    for (const value of Object.values(numbers)) if (typeof value === 'string') return error(value)
    if (run.record !== undefined) return error('a worker cannot --record: record a run with "wardflow run".')
    return {
      command: 'worker',
      redis,
      queue,
      resultTtlS,
      run,
      ...(numbers as Record<keyof typeof numbers, number>),
    }
  }
  if (
    run.record !== undefined ||
    run.replay !== undefined ||
    run.script !== undefined ||
    run.baseUrl !== undefined
  )
    return error(
      "enqueue sends the flow and its inputs only: provider, --record and --replay flags are the worker's.",
    )
  const data = own.get('--data')
  const out = own.get('--out')
  return {
    command: 'enqueue',
    redis,
    queue,
    resultTtlS,
    file: run.file,
    inputs: run.inputs,
    wait: own.has('--wait'),
    ...(data === undefined ? {} : { data }),
    ...(out === undefined ? {} : { out }),
  }
}
