/** Flows: list, load (validated + migrated), save, rename, duplicate, remove, search. */
import { FlowError, type FlowDocument } from '../../engine/index.ts'
import type { WardflowDb } from '../db.ts'
import { guard } from '../errors.ts'
import type { NodeLookup } from '../restore/index.ts'
import { CURRENT_DOC_SCHEMA_VERSION } from '../restore/migrations.ts'
import type { FlowRow } from '../rows.ts'

/** What the flow list shows. */
export interface FlowSummary {
  id: string
  name: string
  /** ISO-8601 */
  updatedAt: string
  nodeCount: number
}

export interface LoadedFlow {
  doc: FlowDocument
  /** What restore repaired or converted, for a notice; empty when the flow was clean. */
  notes: string[]
  /** Document migrations applied, e.g. `1->2 nest-node-label-and-config-in-data`. */
  migrated: string[]
  /** The stored revision (FlowRow.revision); pass it as `baseRevision` to the next save. */
  revision: number
}

export interface SaveFlowOptions {
  /**
   * The revision this document was edited from. When the stored row has another one (a second
   * tab saved meanwhile), nothing is written and FLOW_CONFLICT is thrown. Omitted: the save
   * replaces whatever is stored (imports, templates, renames of flows no tab edits).
   */
  baseRevision?: number
}

function toRow(doc: FlowDocument, revision: number): FlowRow {
  if (typeof doc.metadata.id !== 'string' || doc.metadata.id === '') {
    throw new FlowError('STORAGE_FAILED', 'A flow without an id cannot be saved.')
  }
  return {
    id: doc.metadata.id,
    name: doc.metadata.name,
    updatedAt: doc.metadata.updatedAt,
    schemaVersion: CURRENT_DOC_SCHEMA_VERSION,
    nodeCount: doc.nodes.length,
    revision,
    doc,
  }
}

/** The revision of a stored row (rows written before revisions count as 0). */
export function revisionOf(row: Pick<FlowRow, 'revision'> | undefined): number {
  return typeof row?.revision === 'number' && Number.isInteger(row.revision) ? row.revision : 0
}

function summary(row: FlowRow): FlowSummary {
  const nodes =
    typeof row.doc === 'object' && row.doc !== null ? (row.doc as { nodes?: unknown }).nodes : undefined
  return {
    id: row.id,
    name: row.name,
    updatedAt: row.updatedAt,
    nodeCount: row.nodeCount ?? (Array.isArray(nodes) ? nodes.length : 0),
  }
}

/** Every flow, most recently updated first. */
export function listFlows(db: WardflowDb): Promise<FlowSummary[]> {
  return guard('listing flows', async () =>
    (await db.flows.orderBy('updatedAt').reverse().toArray()).map(summary),
  )
}

/** Flows whose name contains `query` (case- and accent-insensitive), most recent first. */
export async function searchFlows(db: WardflowDb, query: string): Promise<FlowSummary[]> {
  const needle = fold(query.trim())
  const all = await listFlows(db)
  return needle === '' ? all : all.filter((flow) => fold(flow.name).includes(needle))
}

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase()
}

/**
 * Loads, validates and migrates one flow; undefined when there is none with that id. A row too
 * damaged to read is a STORAGE_FAILED error and stays as stored.
 */
export async function loadFlow(
  db: WardflowDb,
  id: string,
  lookup?: NodeLookup,
): Promise<LoadedFlow | undefined> {
  const row = await guard('loading a flow', () => db.flows.get(id))
  if (row === undefined) return undefined
  // Restore (validation, repairs, migrations) loads with the first stored flow read: a first
  // visit, which only creates and saves a blank flow, does without it.
  const { restoreFlowRow } = await import('../restore/index.ts')
  const restored = restoreFlowRow(row, lookup)
  if (!restored.ok) {
    const first = restored.problems[0]
    throw new FlowError(
      'STORAGE_FAILED',
      `The saved flow "${row.name}" could not be read (${first?.path ?? ''}: ${first?.message ?? 'unknown problem'}). It was left as it was stored.`,
      {
        details: { flowId: id, name: row.name },
        messageKey: 'ui:flows.unreadable',
        problems: first === undefined ? [] : [first],
      },
    )
  }
  return { doc: restored.doc, notes: restored.notes, migrated: restored.migrated, revision: revisionOf(row) }
}

/**
 * Validates and migrates a flow document kept outside the database (the unsaved-changes
 * journal in localStorage, which any script of the origin could have changed): undefined when
 * it is not a readable flow.
 */
export async function restoreFlowDocument(
  doc: unknown,
  lookup?: NodeLookup,
): Promise<FlowDocument | undefined> {
  if (typeof doc !== 'object' || doc === null) return undefined
  const meta = (doc as { metadata?: { id?: unknown; name?: unknown; updatedAt?: unknown } }).metadata
  if (typeof meta?.id !== 'string' || meta.id === '') return undefined
  const { restoreFlowRow } = await import('../restore/index.ts')
  const restored = restoreFlowRow(
    {
      id: meta.id,
      name: typeof meta.name === 'string' ? meta.name : '',
      updatedAt: typeof meta.updatedAt === 'string' ? meta.updatedAt : '',
      schemaVersion: CURRENT_DOC_SCHEMA_VERSION,
      doc,
    },
    lookup,
  )
  return restored.ok ? restored.doc : undefined
}

/**
 * Saves (creates or replaces) a flow and returns its new revision. The read of the stored
 * revision and the write are one transaction, so two tabs cannot both pass the check. A failed
 * save leaves the previous version in place.
 */
export function saveFlow(
  db: WardflowDb,
  doc: FlowDocument,
  options: SaveFlowOptions = {},
): Promise<{ revision: number }> {
  return guard('saving a flow', () =>
    db.transaction('rw', db.flows, async () => {
      const stored = await db.flows.get(doc.metadata.id)
      const current = revisionOf(stored)
      if (options.baseRevision !== undefined && stored !== undefined && current !== options.baseRevision) {
        throw new FlowError(
          'FLOW_CONFLICT',
          `The flow "${doc.metadata.name}" was saved in another tab meanwhile (revision ${current}, this tab edited ${options.baseRevision}); nothing was overwritten.`,
          { details: { flowId: doc.metadata.id, revision: current, baseRevision: options.baseRevision } },
        )
      }
      const revision = current + 1
      await db.flows.put(toRow(doc, revision))
      return { revision }
    }),
  )
}

async function mustLoad(db: WardflowDb, id: string, lookup?: NodeLookup): Promise<FlowDocument> {
  const loaded = await loadFlow(db, id, lookup)
  if (loaded === undefined)
    throw new FlowError('STORAGE_FAILED', `There is no saved flow with id "${id}".`, {
      details: { flowId: id },
    })
  return loaded.doc
}

/** Renames a flow; `now` is the ISO time stamped as updatedAt. */
export async function renameFlow(
  db: WardflowDb,
  id: string,
  name: string,
  now: string,
): Promise<FlowDocument> {
  const doc = await mustLoad(db, id)
  const renamed: FlowDocument = { ...doc, metadata: { ...doc.metadata, name, updatedAt: now } }
  await saveFlow(db, renamed)
  return renamed
}

/** Copies a flow under a new id and name (the caller picks both, e.g. "Name (copy)"). */
export async function duplicateFlow(
  db: WardflowDb,
  id: string,
  newId: string,
  name: string,
  now: string,
): Promise<FlowDocument> {
  const doc = await mustLoad(db, id)
  const copy: FlowDocument = structuredClone({
    ...doc,
    metadata: { ...doc.metadata, id: newId, name, createdAt: now, updatedAt: now },
  })
  await saveFlow(db, copy)
  return copy
}

/** Removes a flow and its run history. */
export function removeFlow(db: WardflowDb, id: string): Promise<void> {
  return guard('deleting a flow', () =>
    db.transaction('rw', db.flows, db.runs, async () => {
      await db.runs.where('flowId').equals(id).delete()
      await db.flows.delete(id)
    }),
  )
}

/** Removes every flow and all run history; returns how many flows went. */
export function removeAllFlows(db: WardflowDb): Promise<number> {
  return guard('deleting all flows', () =>
    db.transaction('rw', db.flows, db.runs, async () => {
      const count = await db.flows.count()
      await db.runs.clear()
      await db.flows.clear()
      return count
    }),
  )
}
