/**
 * The run service's part for past runs (issue 19, items 3 and 4): forking one into a new flow,
 * what differs between it and the live flow, and what a fork's run reuses from its parent.
 */
import { toFlowError, type FlowDocument, type NodeRegistry } from '../../engine/run.ts'
import { DEBUG_NAMESPACE, i18next, loadNamespaces } from '../../i18n/index.ts'
import type { RunRecord } from '../../storage/rows.ts'
import { selectDocument, type FlowStore } from '../../store/flowStore.ts'
import { newFlowId } from '../../store/ids.ts'
import type { BannerError } from '../../store/noticeStore.ts'
import { diffFlows, type FlowDiff } from './runDiff.ts'
import { forkCacheOf, forkDocument, forkedFromOf, reusesForkParent, snapshotName } from './runFork.ts'
import { runOptionsFor, type FromHereRequest } from './reuseOptions.ts'
import type { RunsRepository } from './runHistory.ts'
import { formatTime } from '../../ui/run/format.ts'

/** What forking needs from the app: making and opening a flow, reading a record's snapshot. */
export interface ForkHost {
  /** Saves `doc` as a new flow, lists it and opens it. */
  create(doc: FlowDocument): Promise<void>
  /** A snapshot read through the flow restore (checks, migrations); undefined when unreadable. */
  restore(snapshot: unknown): Promise<FlowDocument | undefined>
  newFlowId?(): string
  now?(): string
}

export interface ForkDeps {
  flows: FlowStore
  repository: RunsRepository
  registry: NodeRegistry
  host?: ForkHost
  showError(error: BannerError): void
  /** Leaves the past run's view. */
  showLive(): void
}

/** The past run a flow's run reuses and records as its parent, beside what `runOptionsFor` gives. */
export type PlannedRun = ReturnType<typeof runOptionsFor> & { forkedFrom?: RunRecord['forkedFrom'] }

export function createForkActions(deps: ForkDeps) {
  const snapshotOf = async (record: RunRecord): Promise<FlowDocument | undefined> =>
    record.flow === undefined || !deps.host
      ? undefined
      : deps.host.restore(record.flow).catch(() => undefined)

  /** The options of a run of `doc`: a fork with no run of its own reuses its parent run. */
  async function plan(doc: FlowDocument, from: FromHereRequest | undefined): Promise<PlannedRun> {
    const own = await deps.repository.list(doc.metadata.id).catch((): RunRecord[] => [])
    const forkOf = doc.metadata.forkOf
    const parent =
      forkOf && reusesForkParent(doc, own)
        ? await deps.repository.get(forkOf.runId).catch(() => undefined)
        : undefined
    if (!parent) return runOptionsFor({ doc, registry: deps.registry, records: own, from })
    const planned = runOptionsFor({ doc, registry: deps.registry, records: [parent], from })
    return {
      options: { ...planned.options, cache: forkCacheOf(parent) },
      parentRunId: parent.id,
      forkedFrom: forkedFromOf(parent),
    }
  }

  return {
    plan,
    /** Makes a new flow of the run's flow as it ran and opens it; the past run stays untouched. */
    async fork(runId: string): Promise<void> {
      const host = deps.host
      if (!host) return
      try {
        await loadNamespaces([DEBUG_NAMESPACE]).catch(() => undefined)
        const record = await deps.repository.get(runId)
        if (!record) return
        const live = selectDocument(deps.flows.getState())
        const snapshot = await snapshotOf(record)
        const lang = i18next.language
        const base = snapshotName(record) || live?.metadata.name || ''
        const name = i18next.t('fork.name', {
          ns: DEBUG_NAMESPACE,
          name: base,
          time: formatTime(record.startedAt, lang),
        })
        const now = host.now?.() ?? new Date().toISOString()
        const id = (host.newFlowId ?? newFlowId)()
        const doc = forkDocument({ record, snapshot, live, id, name, now })
        if (!doc) return
        deps.showLive()
        await host.create(doc)
      } catch (error) {
        const e = toFlowError(error, 'STORAGE_FAILED')
        deps.showError({ code: e.code, message: e.message, details: e.details })
      }
    },
    /** What differs from the run's flow to the live one; null when the record kept no snapshot. */
    async diff(runId: string): Promise<FlowDiff | null> {
      const record = await deps.repository.get(runId)
      const live = selectDocument(deps.flows.getState())
      if (!record || !live) return null
      const snapshot = await snapshotOf(record)
      return snapshot ? diffFlows(snapshot, live) : null
    },
  }
}
