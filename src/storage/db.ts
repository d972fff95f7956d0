/**
 * The Wardflow IndexedDB database. Every `version(n)` block lives here, ascending, each with a
 * one-line note (house rule 10). Document-shape changes are NOT Dexie versions: they are
 * migrations in restore/, applied on load.
 */
import { Dexie, type Table, type Transaction } from 'dexie'
import { isSecretHeaderName, type ProviderSecret } from './secrets.ts'
import {
  SECRETS_ROW_ID,
  SETTINGS_ROW_ID,
  type CacheRow,
  type ExportRecord,
  type FlowRow,
  type RunRecord,
  type SecretsRow,
  type SettingsRow,
} from './rows.ts'
import type { KnowledgeBaseRow, KnowledgeChunkRow, KnowledgeDocumentRow } from './knowledgeRows.ts'
import type { BatchRunRow } from './repositories/batchRuns.ts'
import type { ApprovalRow } from './repositories/approvals.ts'

/** The newest database version this build declares. */
export const DB_VERSION = 6

export interface WardflowDbOptions {
  /** Declare versions only up to this one: lets tests create an old database and upgrade it. */
  upToVersion?: number
}

export class WardflowDb extends Dexie {
  declare flows: Table<FlowRow, string>
  declare runs: Table<RunRecord, string>
  declare settings: Table<SettingsRow, string>
  declare secrets: Table<SecretsRow, string>
  declare exports: Table<ExportRecord, string>
  declare caches: Table<CacheRow, string>
  declare knowledgeBases: Table<KnowledgeBaseRow, string>
  declare knowledgeDocuments: Table<KnowledgeDocumentRow, string>
  declare knowledgeChunks: Table<KnowledgeChunkRow, string>
  declare batchRuns: Table<BatchRunRow, string>
  declare approvals: Table<ApprovalRow, string>

  constructor(name: string, options: WardflowDbOptions = {}) {
    super(name)
    const upTo = options.upToVersion ?? DB_VERSION

    // v1: first release: flows, runs and one settings row (provider keys still inside settings).
    this.version(1).stores({ flows: 'id, name, updatedAt', runs: 'id, flowId, startedAt', settings: 'id' })
    if (upTo < 2) return

    // v2: keys move out of settings into `secrets`; `exports` table; runs indexed by [flowId+startedAt].
    this.version(2)
      .stores({
        runs: 'id, flowId, startedAt, [flowId+startedAt]',
        secrets: 'id',
        exports: 'id, kind, createdAt',
      })
      .upgrade(moveKeysToSecrets)
    if (upTo < 3) return

    // v3: `caches` table for disposable data (fetched model lists); flow rows get nodeCount.
    this.version(3)
      .stores({ caches: 'id, kind, createdAt' })
      .upgrade(async (tx) => {
        await tx
          .table<FlowRow, string>('flows')
          .toCollection()
          .modify((row) => {
            row.nodeCount = countNodes(row.doc)
          })
      })
    if (upTo < 4) return

    // v4: knowledge bases, their documents and chunks (with vectors); new tables only, no upgrade.
    this.version(4).stores({
      knowledgeBases: 'id, name, createdAt',
      knowledgeDocuments: 'id, baseId, addedAt',
      knowledgeChunks: 'id, baseId, documentId',
    })
    if (upTo < 5) return

    // v5: the row runs of a flow's latest batch, apart from Run history (bounded); new table only.
    this.version(5).stores({ batchRuns: 'id, flowId' })
    if (upTo < 6) return

    // v6: the approvals a paused run waits on, so a reload keeps them; new table only, no upgrade.
    this.version(6).stores({ approvals: 'id, runId' })
  }
}

/** Opens (creating or upgrading) the database. Throws Dexie errors; callers map them with guard(). */
export async function openWardflowDb(
  name = 'wardflow',
  options: WardflowDbOptions = {},
): Promise<WardflowDb> {
  const db = new WardflowDb(name, options)
  await db.open()
  return db
}

function countNodes(doc: unknown): number {
  if (typeof doc !== 'object' || doc === null) return 0
  const nodes = (doc as { nodes?: unknown }).nodes
  return Array.isArray(nodes) ? nodes.length : 0
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

/** v1 -> v2: takes apiKey and secret header values out of the settings row into the secrets row. */
async function moveKeysToSecrets(tx: Transaction): Promise<void> {
  const row = asRecord(await tx.table('settings').get(SETTINGS_ROW_ID))
  const value = asRecord(row?.value)
  const providers = Array.isArray(value?.providers) ? value.providers : []
  const secrets: ProviderSecret[] = []
  const cleaned = providers.map((raw: unknown) => {
    const provider = asRecord(raw)
    if (provider === undefined || typeof provider.id !== 'string') return raw
    const apiKey = typeof provider.apiKey === 'string' ? provider.apiKey : ''
    const headers = Array.isArray(provider.headers) ? provider.headers.map(asRecord) : []
    const secretHeaders = headers.flatMap((h) =>
      h !== undefined &&
      typeof h.key === 'string' &&
      typeof h.value === 'string' &&
      h.value !== '' &&
      isSecretHeaderName(h.key)
        ? [{ key: h.key, value: h.value }]
        : [],
    )
    if (apiKey !== '' || secretHeaders.length > 0)
      secrets.push({ providerId: provider.id, apiKey, headers: secretHeaders })
    const keptHeaders = headers.map((h) =>
      h !== undefined && typeof h.key === 'string' && isSecretHeaderName(h.key) ? { ...h, value: '' } : h,
    )
    return { ...provider, apiKey: '', ...(Array.isArray(provider.headers) ? { headers: keptHeaders } : {}) }
  })
  if (row !== undefined && value !== undefined) {
    await tx.table('settings').put({ ...row, value: { ...value, providers: cleaned } })
  }
  await tx
    .table('secrets')
    .put({ id: SECRETS_ROW_ID, state: 'plain', providers: secrets } satisfies SecretsRow)
}
