/**
 * Numbered, named migrations of the flow document's shape (tldraw-style). Each step takes the
 * document of version `from` and returns version `to`; they run in order on every load of an
 * older row. Per-node config shapes migrate separately (node definitions' `migrate`).
 *
 * Shape history:
 * - 1: prototype rows: `{ id, name, createdAt, updatedAt, nodes: [{ id, type, position, label,
 *   config }], edges: [{ source, target, ... }] }`, no viewport.
 * - 2: node label and config live under `node.data`.
 * - 3: flow identity lives under `metadata` (with description and tags); every edge has an id;
 *   a viewport is always present.
 */

export interface DocMigration {
  from: number
  to: number
  name: string
  up(doc: Record<string, unknown>): Record<string, unknown>
}

export const CURRENT_DOC_SCHEMA_VERSION = 3

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

function mapArray(value: unknown, fn: (item: Record<string, unknown>, index: number) => unknown): unknown {
  if (!Array.isArray(value)) return value
  return value.map((item: unknown, index) => {
    const rec = record(item)
    return rec === undefined ? item : fn(rec, index)
  })
}

const nestLabelAndConfig: DocMigration = {
  from: 1,
  to: 2,
  name: 'nest-node-label-and-config-in-data',
  up(doc) {
    const nodes = mapArray(doc.nodes, (node) => {
      if (record(node.data) !== undefined) return node
      const { label, config, ...rest } = node
      return {
        ...rest,
        data: { label: typeof label === 'string' ? label : '', config: record(config) ?? {} },
      }
    })
    return { ...doc, nodes }
  },
}

const metadataBlock: DocMigration = {
  from: 2,
  to: 3,
  name: 'metadata-block-edge-ids-viewport',
  up(doc) {
    const { id, name, createdAt, updatedAt, description, tags, ...rest } = doc
    const metadata = record(doc.metadata) ?? {
      id,
      name: typeof name === 'string' ? name : '',
      description: typeof description === 'string' ? description : '',
      tags: Array.isArray(tags) ? tags : [],
      createdAt,
      updatedAt: updatedAt ?? createdAt,
    }
    const edges = mapArray(doc.edges, (edge, index) =>
      typeof edge.id === 'string' && edge.id !== ''
        ? edge
        : { ...edge, id: `e${index + 1}_${String(edge.source)}_${String(edge.target)}` },
    )
    return { ...rest, metadata, edges, viewport: record(doc.viewport) ?? { x: 0, y: 0, zoom: 1 } }
  },
}

/** Every document migration, ascending. */
export const DOC_MIGRATIONS: readonly DocMigration[] = [nestLabelAndConfig, metadataBlock]

/** Guesses the shape version of a document stored without one (rows written by DB v1). */
export function inferDocSchemaVersion(doc: unknown): number {
  const rec = record(doc)
  if (rec === undefined) return CURRENT_DOC_SCHEMA_VERSION
  if (record(rec.metadata) !== undefined) return CURRENT_DOC_SCHEMA_VERSION
  const first = Array.isArray(rec.nodes) ? record(rec.nodes[0]) : undefined
  return first !== undefined && record(first.data) !== undefined ? 2 : 1
}

export type MigrateResult =
  | { ok: true; doc: unknown; applied: string[] }
  | { ok: false; message: string; key?: string; params?: Record<string, string | number> }

/** Runs the migrations from `fromVersion` up to CURRENT_DOC_SCHEMA_VERSION. Never throws. */
export function migrateDocument(doc: unknown, fromVersion: number): MigrateResult {
  if (!Number.isInteger(fromVersion) || fromVersion < 1) {
    return {
      ok: false,
      message: `Unknown document version ${String(fromVersion)}.`,
      key: 'issues:importProblem.doc.unknownVersion',
      params: { found: String(fromVersion) },
    }
  }
  if (fromVersion > CURRENT_DOC_SCHEMA_VERSION) {
    return {
      ok: false,
      message: `This flow was saved by a newer Wardflow (document version ${fromVersion}, this app reads up to ${CURRENT_DOC_SCHEMA_VERSION}). Update Wardflow to open it.`,
      key: 'issues:importProblem.doc.newerVersion',
      params: { found: fromVersion, version: CURRENT_DOC_SCHEMA_VERSION },
    }
  }
  let current = doc
  const applied: string[] = []
  for (const migration of DOC_MIGRATIONS) {
    if (migration.from < fromVersion) continue
    const rec = record(current)
    if (rec === undefined)
      return {
        ok: false,
        message: 'The stored flow is not an object.',
        key: 'issues:importProblem.doc.notObject',
      }
    current = migration.up(rec)
    applied.push(`${migration.from}->${migration.to} ${migration.name}`)
  }
  return { ok: true, doc: current, applied }
}
