/**
 * Forking a past run (issue 19, item 3). A fork is a new flow made from the flow as the run saw
 * it (the record's snapshot; the live flow for records saved before snapshots), named after it
 * and carrying `metadata.forkOf`. Nothing is lost: the past run's record is only read, the flow
 * it ran in stays as it is. Until the fork has a run of its own, its runs reuse the past run's
 * results for every node whose type, config and inputs are unchanged (cache keys, reuse.ts),
 * models that sample included, so only what was changed in the fork and what depends on it runs;
 * each such run records the past run as its parent (`parentRunId`, `forkedFrom`).
 */
import type { FlowDocument, ResultCache } from '../../engine/run.ts'
import type { RunRecord } from '../../storage/rows.ts'
import { resultCacheOf } from './reuseOptions.ts'

/** What a record keeps of the flow it ran: the document without its viewport. */
export function flowSnapshotOf(doc: FlowDocument): unknown {
  const { viewport: _viewport, ...kept } = doc
  return structuredClone(kept)
}

/** The flow name a record's snapshot holds ('' when it has none). */
export function snapshotName(record: Pick<RunRecord, 'flow'>): string {
  const meta = (record.flow as { metadata?: { name?: unknown } } | undefined)?.metadata
  return typeof meta?.name === 'string' ? meta.name : ''
}

export interface ForkRequest {
  /** The run to fork. */
  record: RunRecord
  /** Its flow as it ran, restored from `record.flow`; undefined when the record has none. */
  snapshot: FlowDocument | undefined
  /** The open flow (used when the record has no snapshot, and for the viewport). */
  live: FlowDocument | null
  id: string
  name: string
  now: string
}

/** The fork's document, or undefined when there is nothing to fork from. */
export function forkDocument(request: ForkRequest): FlowDocument | undefined {
  const { record, snapshot, live, id, name, now } = request
  const base = snapshot ?? (live?.metadata.id === record.flowId ? live : undefined)
  if (!base) return undefined
  const copy = structuredClone(base)
  return {
    ...copy,
    viewport: live ? { ...live.viewport } : copy.viewport,
    metadata: {
      ...copy.metadata,
      id,
      name,
      createdAt: now,
      updatedAt: now,
      forkOf: { flowId: record.flowId, runId: record.id },
    },
  }
}

/** The parent a fork's run records. */
export function forkedFromOf(parent: RunRecord): NonNullable<RunRecord['forkedFrom']> {
  return {
    runId: parent.id,
    flowId: parent.flowId,
    flowName: snapshotName(parent),
    startedAt: parent.startedAt,
  }
}

/**
 * The cache a fork's run reuses from: the past run's results by key, models that sample
 * included (the person asked for that run's results by forking it).
 */
export function forkCacheOf(parent: RunRecord): ResultCache {
  return { ...resultCacheOf([parent], true), includeVarying: true }
}

/** True when `doc`'s runs should reuse its fork parent: a fork with no run of its own yet. */
export function reusesForkParent(doc: FlowDocument, ownRecords: readonly RunRecord[]): boolean {
  return doc.metadata.forkOf !== undefined && ownRecords.length === 0
}
