/**
 * Many runs: batch, record and replay, workers on a queue. Part of src/defaults.ts (which
 * re-exports it), split off by area.
 */
import type { NumberRange } from './range.ts'

// --- Record and replay (src/cassette/, `wardflow test`) ---

/** A differing value in a replay failure or a `wardflow test` difference is shown up to this many characters. */
export const CASSETTE_DIFF_SHOWN_CHARS = 80
/** `wardflow test` prints at most this many differences per flow (then "and N more"). */
export const CASSETTE_DIFFS_SHOWN_MAX = 20

// --- `wardflow batch` (src/cli/batch.ts) ---

// Rows run at once: BATCH_CONCURRENCY (defaults/batch.ts), shared with the browser's batch.
/** The terminal progress bar is redrawn at most this often (ms). */
export const CLI_BATCH_PROGRESS_REDRAW_MS = 100
/** Width of the terminal progress bar, in characters. */
export const CLI_BATCH_PROGRESS_BAR_CHARS = 30

// --- Workers on BullMQ (src/cli/worker.ts, src/cli/enqueue.ts) ---

/** Runs one worker process takes at once unless --concurrency says otherwise. */
export const WORKER_CONCURRENCY = 4
export const WORKER_CONCURRENCY_RANGE: NumberRange = { min: 1, max: 256, step: 1 }
/** The queue's name unless --queue says otherwise. */
export const QUEUE_DEFAULT_NAME = 'wardflow'
/**
 * A job whose worker stopped renewing its lock (killed, frozen) goes back to the queue at the
 * next stalled-job check, at most this long after (ms; BullMQ's own default, 30 s, plus the lock).
 */
export const WORKER_STALLED_INTERVAL_MS = 30_000
export const WORKER_STALLED_INTERVAL_RANGE_MS: NumberRange = { min: 100, max: 600_000, step: 100 }
/** A worker holds a job's lock this long and renews it at half of it (ms). */
export const WORKER_LOCK_DURATION_MS = 30_000
export const WORKER_LOCK_DURATION_RANGE_MS: NumberRange = { min: 200, max: 600_000, step: 100 }
/** A job found stalled this many times fails instead of going back once more (a run that kills its worker). */
export const WORKER_MAX_STALLED_COUNT = 3
/** On SIGTERM a worker finishes its running jobs for up to this long, then hands them back (ms). */
export const WORKER_SHUTDOWN_GRACE_MS = 25_000
export const WORKER_SHUTDOWN_GRACE_RANGE_MS: NumberRange = { min: 0, max: 3_600_000, step: 1_000 }
/** Parsed flows a worker keeps (by the hash of their text), so a batch's jobs parse their flow once. */
export const WORKER_FLOWS_CACHED = 16
/** Results stay in Redis this long after they are written (s): 7 days. */
export const QUEUE_RESULT_TTL_S = 7 * 24 * 3_600
export const QUEUE_RESULT_TTL_RANGE_S: NumberRange = { min: 60, max: 365 * 24 * 3_600, step: 60 }
/** `enqueue` adds this many jobs to Redis in one round trip. */
export const ENQUEUE_ADD_BULK_JOBS = 500
/** `enqueue --wait` blocks this long (ms) on its done list before looking again (and at Ctrl-C). */
export const ENQUEUE_WAIT_POLL_MS = 500
/** BullMQ keeps this many finished job records (the results live under their own keys with a TTL). */
export const QUEUE_KEEP_FINISHED_JOBS = 1_000
