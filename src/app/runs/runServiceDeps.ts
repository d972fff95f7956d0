/**
 * What the run service needs from the app (RunServiceDeps) and what it offers it (AppRunService),
 * apart from the service itself (runService.ts), so that file stays about running.
 */
import type { FlowDocument, NodeRegistry } from '../../engine/run.ts'
import type { AppSettings } from '../../settings/schema.ts'
import type { FlowStore } from '../../store/flowStore.ts'
import type { NoticeState } from '../../store/noticeStore.ts'
import type { RunStore } from '../../store/runStore.ts'
import type { StoreApi } from 'zustand'
import type { RunService } from '../../ui/services.ts'
import type { FrameScheduler } from './eventBatcher.ts'
import type { KeyAccess, RunHost } from './RunResources.ts'
import type { RunsRepository } from './runHistory.ts'
import type { ForkHost } from './forkService.ts'
import type { Downloader } from '../core/downloadService.ts'
import type { Translate } from './runRefusal.ts'
import type { ApprovalsRepository } from './pausedRuns.ts'

export interface RunServiceDeps {
  flows: FlowStore
  runs: RunStore
  notices: StoreApi<NoticeState>
  /** The current settings (keys filled in while unlocked). */
  settings(): AppSettings
  registry: NodeRegistry
  /** Writes any pending autosave. */
  flush(): Promise<void>
  repository: RunsRepository
  host: RunHost
  keys?: KeyAccess
  frames?: FrameScheduler
  /** `run:` catalogue lookup; i18next by default. */
  translate?: Translate
  newRunId?(): string
  /** A saved flow by id, for the flows Sub-flow nodes call; absent: such nodes find none. */
  loadFlow?(id: string): Promise<FlowDocument | undefined>
  /** Making the new flow of a fork (forkService.ts); absent: past runs cannot be forked. */
  forks?: ForkHost
  /** Saving a trace file; the browser's download by default. */
  download?: Downloader
  /**
   * false: the record is written once, at the run's end (the baseline of the record-as-you-go
   * bench, bench/recordAsYouGo.vbench.ts). Default true: kept as the run goes (IncrementalRecord).
   */
  recordAsItGoes?: boolean
  /** Pending approvals kept across a reload (pausedRuns.ts); absent: a reload loses them. */
  approvals?: ApprovalsRepository
}

/** RunService plus the run history and lifecycle the app composition uses. */
export interface AppRunService extends RunService {
  /** Resolves once nothing is running and the last record is saved. */
  whenIdle(): Promise<void>
  /** Shows a saved run read-only on the canvas. */
  openRun(id: string): Promise<void>
  /** Back from a past run to the live canvas. */
  showLive(): void
  /** Reloads the open flow's run history. */
  refreshHistory(): Promise<void>
  /** Shows the open flow's run a reload left paused on an approval, if any (pausedRuns.ts). */
  restorePaused(): Promise<void>
  dispose(): void
}
