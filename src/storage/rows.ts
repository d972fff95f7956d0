/**
 * Shapes of the rows Wardflow keeps in IndexedDB. Rows are read back as `unknown` where their
 * content may come from an older version of the app; restore/ and the repositories validate them.
 */
import type { AppSettings } from '../settings/schema.ts'
import type { EncryptedEnvelope } from './crypto.ts'
import type { Secrets } from './secrets.ts'

/** One flow. `name` and `updatedAt` are copied out of the document so Dexie can index them. */
export interface FlowRow {
  id: string
  name: string
  /** ISO-8601, copied from `doc.metadata.updatedAt`. */
  updatedAt: string
  /** Shape version of `doc` (restore/migrations.ts); rows written before v2 have none. */
  schemaVersion?: number
  nodeCount?: number
  /**
   * Counts the saves of this flow (1 for the first; rows from before revisions have none, read
   * as 0). A tab writes only over the revision it last read (saveFlow's `baseRevision`), so two
   * tabs editing one flow never overwrite each other unseen (issue 16, item 4).
   */
  revision?: number
  /** A FlowDocument of `schemaVersion`; validated and migrated on every load. */
  doc: unknown
}

/**
 * A record's outcome. A stopped run is `cancelled` (the engine's word) in records; History shows
 * it as `stopped` (app/runs/runHistory.ts `historyStatusOf`). `interrupted`: the record kept as
 * the run went (at node ends) by a run that never finished (the page was reloaded or closed
 * mid-run); it holds what finished before that.
 */
/** 'stopped': a guard stopped the whole run (its whole-run budget); 'cancelled': Stop. */
export type RunStatus = 'success' | 'error' | 'cancelled' | 'stopped' | 'interrupted'

/** Timing of one node in a run. */
export interface NodeTiming {
  startedAt: number
  durationMs: number
}

/** One run: written at its node ends as it goes (status `interrupted` until it ends), then at its end. */
export interface RunRecord {
  id: string
  flowId: string
  /** ms since epoch */
  startedAt: number
  finishedAt: number
  status: RunStatus
  /** Run inputs that overrode Input node values. */
  inputs: Record<string, string>
  /** Node outputs keyed by node id. */
  outputs: Record<string, Record<string, unknown>>
  /** The run's events (consecutive chunks of one node are merged before saving). */
  events: unknown[]
  /** The run's usage; cost fields optional, so records saved before cost counting stay valid. */
  usage: {
    prompt: number
    completion: number
    total: number
    estimated: boolean
    cachedPromptTokens?: number
    reasoningTokens?: number
    costUsd?: number | null
    unpricedCalls?: number
  }
  timings: Record<string, NodeTiming>
  /**
   * Loop iterations whose events were left out of `events` (only the newest
   * LOOP_STORED_ITERATIONS_MAX of each loop are kept), by loop id. Absent: none were.
   */
  iterationsNotKept?: Record<string, number>
  /** The nodes that were not run and where their outputs came from (issue 19). */
  reused?: Record<string, { reason: 'pinned' | 'reused' | 'unchanged'; fromRunId?: string }>
  /** The run this one continued ("run from here" starts from a recorded run). */
  parentRunId?: string
  /**
   * The flow as it was when the run started (its document, viewport left out), so a past run can
   * be compared with the live flow and forked as it was. Absent in records saved before.
   */
  flow?: unknown
  /** The run of another flow this one forked from (its parent, issue 19); absent: not a fork. */
  forkedFrom?: { runId: string; flowId: string; flowName: string; startedAt: number }
}

export const SETTINGS_ROW_ID = 'app'

/** The settings row. Provider keys are never in it (since DB v2): they live in `secrets`. */
export interface SettingsRow {
  id: typeof SETTINGS_ROW_ID
  value: AppSettings | unknown
}

export const SECRETS_ROW_ID = 'keys'

/** Provider keys, in plain text or, while locked, encrypted with the person's passphrase. */
export type SecretsRow =
  | { id: typeof SECRETS_ROW_ID; state: 'plain'; providers: Secrets }
  | { id: typeof SECRETS_ROW_ID; state: 'locked'; envelope: EncryptedEnvelope }

export type ExportKind = 'sanitized' | 'full'

/** A settings export as the person downloaded it, kept so they can download or restore it again. */
export interface ExportRecord {
  id: string
  kind: ExportKind
  /** ms since epoch */
  createdAt: number
  /** UTF-8 bytes of `text`. */
  size: number
  fileName: string
  text: string
}

/** Disposable data (fetched model lists and the like): clearing it loses nothing a person made. */
export interface CacheRow {
  id: string
  kind: string
  /** ms since epoch */
  createdAt: number
  value: unknown
}
