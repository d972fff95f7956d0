/**
 * The run service: what `run-flow` and `stop-flow` do. Run saves pending edits, refuses a flow
 * that cannot run (error banner), builds the engine context and streams `runFlow`'s events into
 * the run store in animation frames, at most one batch per RUN_BATCH_MIN_INTERVAL_MS. The run's
 * record is written as it goes, at node ends only (never per streamed token: IncrementalRecord),
 * and finally at its end, when the run history of the open flow is refreshed.
 */
import {
  EventScrubber,
  runFlow,
  scrubSecrets,
  toFlowError,
  type FlowDocument,
  type RecordedApproval,
  type RunEvent,
  withRecordedAnswer,
} from '../../engine/run.ts'
import { i18next, ISSUES_NAMESPACE, loadNamespaces } from '../../i18n/index.ts'
import type { AppSettings } from '../../settings/schema.ts'
import { secretValues, splitSecrets } from '../../storage/secrets.ts'
import { selectDocument } from '../../store/flowStore.ts'
import type { BannerError } from '../../store/noticeStore.ts'
import { installRunReducer, isRunActive, type BadgeLabeller } from '../../store/runStore.ts'
import { badgeKey } from '../../store/guardBadges.ts'
import * as runReducer from '../../store/runStoreReducer.ts'
import { RUN_BATCH_MIN_INTERVAL_MS } from '../../defaults.ts'
import { animationFrames, createEventBatcher } from './eventBatcher.ts'
import { pacedFrames } from './pacedFrames.ts'
import { providersNeedingKeys, RunResources, keyLockedError } from './RunResources.ts'
import { historyItem, modelCallsOf, replayRecord } from './runHistory.ts'
import { RunRecorder } from './runRecorder.ts'
import { IncrementalRecord } from './incrementalRecord.ts'
import type { FromHereRequest } from './reuseOptions.ts'
import { createForkActions } from './forkService.ts'
import { flowSnapshotOf } from './runFork.ts'
import { browserDownload } from '../core/downloadService.ts'
import type { RunRecord } from '../../storage/rows.ts'
import { collectCalledFlows, createFlowLookup } from '../../nodes/flowLookup.ts'
import { nodeCatalog } from '../../nodes/registry.ts'
import { runLineLabeller } from './runLines.ts'
import { RUN_REFUSED_CODE, runRefusal, type Translate } from './runRefusal.ts'
import { createPausedRuns, trackApprovals } from './pausedRuns.ts'
import type { AppRunService, RunServiceDeps } from './runServiceDeps.ts'

export type { AppRunService, RunServiceDeps }

const i18nTranslate: Translate = (key, values) => i18next.t(key, { ns: 'run', ...values })

/** A new run's id (the batch service's row runs use it too). */
export function defaultRunId(): string {
  return `run_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`
}

/** Every key and secret header value in settings: scrubbed from what a run keeps. */
function secretsOf(settings: AppSettings): string[] {
  return secretValues(splitSecrets(settings).secrets)
}

export function createRunService(deps: RunServiceDeps): AppRunService {
  // The run store folds events with the reducer, which loads with this area (store/runStore.ts).
  installRunReducer(runReducer)
  const t = deps.translate ?? i18nTranslate
  const badge: BadgeLabeller = (alert) => t(badgeKey(alert), { detector: alert.detector ?? '' })
  const labelOf = (id: string): string | undefined =>
    deps.flows.getState().nodes.find((n) => n.id === id)?.data.label
  const lines = runLineLabeller(t, labelOf, () => {
    const { nodes, edges } = deps.flows.getState()
    return { nodes, edges }
  })
  const resources = new RunResources(deps.host, deps.settings, deps.keys)
  const newRunId = deps.newRunId ?? defaultRunId
  let controller: AbortController | null = null
  let current: Promise<void> = Promise.resolve()
  let runningFlowId: string | null = null
  let liveRunId: string | null = null
  /** Runs that got as far as the engine (a start refused before it does not count). */
  let runsStarted = 0

  const runs = () => deps.runs.getState()
  const openFlowId = (): string | null => deps.flows.getState().flowId
  /** A run's failure belongs to its flow (the running one, else the open one). */
  const showError = (error: BannerError): void => {
    const flowId = runningFlowId ?? openFlowId()
    deps.notices.getState().showError(flowId === null ? error : { ...error, flowId })
  }

  async function refreshHistory(): Promise<void> {
    const flowId = openFlowId()
    if (flowId === null) {
      runs().actions.setHistory(null, [])
      return
    }
    try {
      const records = await deps.repository.list(flowId)
      if (openFlowId() === flowId) runs().actions.setHistory(flowId, records.map(historyItem))
    } catch (error) {
      const e = toFlowError(error, 'STORAGE_FAILED')
      showError({ code: e.code, message: e.message, details: e.details })
    }
  }

  /** Asks for a locked key before anything runs, so no node waits on a passphrase dialog. */
  async function unlockFirst(doc: FlowDocument): Promise<boolean> {
    const needed = providersNeedingKeys(doc, deps.settings())
    if (needed.length === 0 || !deps.keys?.isLocked()) return true
    if (await resources.unlock()) return true
    const id = needed[0] as string
    const label = deps.settings().providers.find((p) => p.id === id)?.label || id
    const e = keyLockedError(label)
    showError({ code: e.code, message: e.message, details: e.details })
    return false
  }

  /**
   * Ends the current task. A run's start chains saving, checking, building the context, the
   * phase's render and the engine's first events; on the first run in a fresh page, with every
   * lazily loaded part compiling, that chain was one long task. Between tasks the page can draw.
   */
  const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

  // Forks of past runs and what differs from them; what a fork's run reuses (forkService.ts).
  const forks = createForkActions({
    flows: deps.flows,
    repository: deps.repository,
    registry: deps.registry,
    host: deps.forks,
    showError,
    showLive: () => runs().actions.showLive(),
  })

  async function execute(
    stop: AbortController,
    from?: FromHereRequest,
    recorded?: RecordedApproval,
  ): Promise<void> {
    // A refusal is worded from the issues catalogue (the runs area fetches it with its code;
    // the offline service worker keeps it with every other chunk).
    await Promise.all([
      deps.flush().catch(() => undefined),
      loadNamespaces([ISSUES_NAMESPACE]).catch(() => undefined),
    ])
    await nextTask()
    const doc = selectDocument(deps.flows.getState())
    if (doc === null || stop.signal.aborted) return
    // The flows its Sub-flow nodes call, read once as the run starts: edits made while it runs
    // apply to the next run. A flow that cannot be read counts as missing (preflight says so).
    const load = deps.loadFlow
    const called = load
      ? await collectCalledFlows(doc, deps.registry, (id) => load(id).catch(() => undefined))
      : []
    const flows = createFlowLookup(called, nodeCatalog)
    // What the run needs (sandbox, keys, token counts) is judged over the called flows too.
    const needs: FlowDocument = { ...doc, nodes: [...doc.nodes, ...called.flatMap((f) => f.nodes)] }
    const refusal = runRefusal(doc, deps.registry, t, flows)
    if (refusal) {
      showError(refusal)
      return
    }
    if (!doc.nodes.some((node) => deps.registry.get(node.type)?.executable)) {
      deps.notices.getState().note('run:empty', undefined, 'info')
      return
    }
    if (!(await unlockFirst(needs)) || stop.signal.aborted) return
    const banner = deps.notices.getState().banner
    if (banner?.code === RUN_REFUSED_CODE || banner?.code === 'KEY_LOCKED')
      deps.notices.getState().dismissError()

    const runId = newRunId()
    const base = await resources.context(runId, stop.signal, needs)
    // A run continued after a reload answers the call it paused on with the person's decision.
    const approval = recorded ? withRecordedAnswer(base.approval, recorded) : base.approval
    const ctx = { ...base, flows, ...(approval ? { approval } : {}) }
    const { options, parentRunId, forkedFrom } = await forks.plan(doc, from)
    const flowId = doc.metadata.id
    runningFlowId = flowId
    liveRunId = runId
    runsStarted++
    // The paused run's questions go once its continuation is really under way (not before: a
    // refusal or a cancelled passphrase prompt above leaves them, and their card comes back).
    if (recorded && from?.fromRunId) paused?.continued(from.fromRunId)
    const recorder = new RunRecorder(flowId, ctx.inputs, parentRunId)
    recorder.describe({ flow: flowSnapshotOf(doc), ...(forkedFrom ? { forkedFrom } : {}) })
    const saveRecord = (record: RunRecord): Promise<void> => {
      const settings = deps.settings()
      return deps.repository.save(record, { keep: settings.runHistoryPerFlow, scrub: secretsOf(settings) })
    }
    const kept = deps.recordAsItGoes === false ? undefined : new IncrementalRecord(recorder, saveRecord)
    const asked = deps.approvals && trackApprovals(deps.approvals, runId, flowId, ctx.approvalTimeoutMs)
    const batcher = createEventBatcher(
      (events: RunEvent[]) => {
        // Another flow was opened meanwhile: the run goes on and is saved, but not drawn.
        if (openFlowId() === flowId) runs().actions.applyEvents(events, { badge, lines })
      },
      deps.frames ?? pacedFrames(animationFrames, RUN_BATCH_MIN_INTERVAL_MS),
    )
    runs().actions.setPhase('running')
    await nextTask()
    try {
      // A server may quote the key in an error or split it across streamed pieces: no key
      // reaches a console, the store or the record.
      const scrubber = new EventScrubber(secretsOf(deps.settings()))
      const pass = (event: RunEvent): void => {
        recorder.push(event)
        kept?.seen(event)
        asked?.seen(event)
        batcher.push(event)
        // Every node shows "queued" the moment the run starts, not a frame later.
        if (event.type === 'runStart') batcher.flush()
      }
      try {
        for await (const raw of runFlow(doc, deps.registry, ctx, options)) scrubber.push(raw).forEach(pass)
      } finally {
        scrubber.end().forEach(pass)
        // The run's MCP connections end with it (no-op when it opened none).
        await ctx.mcp?.close().catch(() => undefined)
      }
    } catch (error) {
      const e = toFlowError(error)
      showError({ code: e.code, message: e.message, details: e.details })
    } finally {
      // The last events are drawn in a task of their own, apart from the engine's last work.
      await nextTask()
      batcher.flush()
      // Normally every node's end event already dropped its kept box; not when the engine threw.
      runs().actions.releaseKeptConsoles()
      runningFlowId = null
      liveRunId = null
    }
    // The last record written as the run went must not land after the final one.
    await Promise.all([kept?.close(), asked?.end()])
    const record = recorder.record()
    if (!record) return
    runs().actions.setPhase('saving')
    try {
      await saveRecord(record)
    } catch (error) {
      // The run is on screen but will not be in History: the banner says that, not only that
      // "saving failed" (which reads like the flow's edits were at risk).
      const e = toFlowError(error, 'STORAGE_FAILED')
      showError({
        code: e.code,
        message: `This run's record could not be saved, so it will not be in Run history: ${e.message}`,
        messageKey: 'run:history.notSaved',
        details: { ...e.details, reason: e.message },
      })
    }
    if (openFlowId() === flowId) await refreshHistory()
  }

  function start(from?: FromHereRequest, recorded?: RecordedApproval): boolean {
    if (isRunActive(runs().phase) || controller) return false
    if (!recorded) paused?.discard()
    const stop = new AbortController()
    controller = stop
    runs().actions.showLive()
    runs().actions.setPhase('preparing')
    const before = runsStarted
    current = execute(stop, from, recorded)
      .catch((error: unknown) => {
        const e = toFlowError(error)
        showError({ code: e.code, message: e.message, details: e.details })
      })
      .finally(() => {
        const started = runsStarted !== before
        controller = null
        runs().actions.setPhase('idle')
        // An answer whose run never started (refused, key left locked): the question is shown again.
        if (recorded && !started) void paused?.restore()
      })
    return true
  }

  const paused =
    deps.approvals &&
    createPausedRuns({
      approvals: deps.approvals,
      repository: deps.repository,
      runs: deps.runs,
      openFlowId,
      isLive: (id) => id === liveRunId,
      reduce: { badge, lines },
      now: () => deps.host.clock.now(),
      resume: (from, recorded) => start(from, recorded),
      showError,
    })

  const service: AppRunService = {
    run: () => void start(),
    runFrom(nodeId, mode) {
      // From the past run on screen, if one is open; otherwise from the latest run.
      const view = runs().view
      void start({ nodeId, mode, ...(view.mode === 'past' ? { fromRunId: view.runId } : {}) })
    },
    stop() {
      controller?.abort()
    },
    whenIdle: () => current,
    async openRun(id) {
      try {
        const record = await deps.repository.get(id)
        if (!record) {
          showError({ code: 'RUN_NOT_FOUND', message: t('history.notFound') })
          await refreshHistory()
          return
        }
        const view = replayRecord(record, { badge, lines })
        runs().actions.showPast(historyItem(record), { ...view.nodes }, view.run)
      } catch (error) {
        const e = toFlowError(error, 'STORAGE_FAILED')
        showError({ code: e.code, message: e.message, details: e.details })
      }
    },
    showLive: () => runs().actions.showLive(),
    ...(deps.forks ? { fork: forks.fork } : {}),
    pastRunDiff: forks.diff,
    async downloadTrace(runId: string, content: boolean): Promise<void> {
      try {
        const record = await deps.repository.get(runId)
        if (!record) return
        // The builder loads on the first download: page start never carries it.
        const { traceFileName, traceFileOf } = await import('./traceFile.ts')
        const liveTypes: Record<string, string> = {}
        for (const node of deps.flows.getState().nodes) liveTypes[node.id] = node.type
        const text = traceFileOf(record, { content, secrets: secretsOf(deps.settings()), liveTypes })
        ;(deps.download ?? browserDownload)(traceFileName(record), text)
      } catch (error) {
        const e = toFlowError(error, 'STORAGE_FAILED')
        showError({ code: e.code, message: e.message, details: e.details })
      }
    },
    async downloadCassette(runId: string): Promise<void> {
      try {
        const record = await deps.repository.get(runId)
        if (!record) return
        // Like the trace builder, the converter loads on the first download.
        const { cassetteFileName, cassetteFileOf } = await import('./cassetteFile.ts')
        const live = deps.flows.getState()
        const liveNodes = live.nodes.map((n) => ({ id: n.id, type: n.type }))
        const { text } = cassetteFileOf(record, { secrets: secretsOf(deps.settings()), liveNodes })
        ;(deps.download ?? browserDownload)(cassetteFileName(record, live.metadata?.name), text)
      } catch (error) {
        const e = toFlowError(error, 'STORAGE_FAILED')
        showError({ code: e.code, message: e.message, details: e.details })
      }
    },
    async modelCalls(runId: string, nodeId: string) {
      const record = await deps.repository.get(runId)
      if (!record) return []
      // Records are scrubbed when saved; scrub again with today's keys (a key added since).
      return scrubSecrets(modelCallsOf(record, nodeId), secretsOf(deps.settings()))
    },
    refreshHistory,
    restorePaused: async () => paused?.restore(),
    dispose() {
      controller?.abort()
      unsubscribe()
      stopReadOnly()
      deps.flows.getState().actions.setReadOnly(false)
      resources.dispose()
    },
  }

  // A past run is a view of the flow: while one is shown, nothing may edit the flow.
  const syncReadOnly = (): void => deps.flows.getState().actions.setReadOnly(runs().view.mode === 'past')
  const stopReadOnly = deps.runs.subscribe(syncReadOnly)
  syncReadOnly()

  // Opening another flow: its history replaces the list; the canvas shows no stale statuses.
  let lastFlowId = openFlowId()
  const unsubscribe = deps.flows.subscribe((state) => {
    if (state.flowId === lastFlowId) return
    lastFlowId = state.flowId
    if (runningFlowId === null || runningFlowId !== state.flowId) runs().actions.reset()
    void refreshHistory().then(service.restorePaused)
  })

  return service
}
