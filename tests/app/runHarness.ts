/**
 * The run service wired to real parts for tests: a fake-indexeddb database with the storage
 * runs repository, the real flow/run/notice/settings stores, the real engine, registry and
 * providers (demo, or the local mock OpenAI-compatible server over real HTTP), the system clock
 * and a fake code runner. Frames are a manual queue, or a short timer when `autoFrames` is set.
 */
import { createRunService, type AppRunService, type RunServiceDeps } from '../../src/app/runs/runService.ts'
import { dexieRunsRepository } from '../../src/app/runs/runHistory.ts'
import type { FrameScheduler } from '../../src/app/runs/eventBatcher.ts'
import type { KeyAccess, WarmableCodeRunner } from '../../src/app/runs/RunResources.ts'
import type { ForkHost } from '../../src/app/runs/forkService.ts'
import type { FlowDocument } from '../../src/engine/index.ts'
import { initI18n } from '../../src/i18n/index.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { systemClock } from '../../src/platform/systemClock.ts'
import {
  defaultSettings,
  DEMO_PROVIDER,
  type AppSettings,
  type ProviderSettings,
} from '../../src/settings/schema.ts'
import type { WardflowDb } from '../../src/storage/db.ts'
import { loadFlow } from '../../src/storage/repositories/flows.ts'
import { createFlowStore, type FlowStore } from '../../src/store/flowStore.ts'
import { createNoticeStore } from '../../src/store/noticeStore.ts'
import { createRunStore, type RunStore } from '../../src/store/runStore.ts'
import { fakeCodeRunner } from '../support/fakeCodeRunner.ts'
import { freshDb } from '../storage/support.ts'

/** Frames that run only when the test says so. */
export class ManualFrames implements FrameScheduler {
  private next = 1
  private readonly waiting = new Map<number, () => void>()
  requested = 0
  request(callback: () => void): number {
    this.requested += 1
    const handle = this.next++
    this.waiting.set(handle, callback)
    return handle
  }
  cancel(handle: number): void {
    this.waiting.delete(handle)
  }
  /** Runs every waiting frame callback once. */
  tick(): void {
    const callbacks = [...this.waiting.values()]
    this.waiting.clear()
    for (const callback of callbacks) callback()
  }
}

/** A timer every 16 ms, like a real display. */
export const timerFrames: FrameScheduler = {
  request: (callback) => setTimeout(callback, 16) as unknown as number,
  cancel: (handle) => clearTimeout(handle),
}

/** An OpenAI-compatible provider entry pointing at `baseUrl`. */
export function openAiProvider(baseUrl: string, patch: Partial<ProviderSettings> = {}): ProviderSettings {
  return {
    id: 'mock',
    label: 'Mock server',
    kind: 'openai',
    baseUrl,
    model: 'mock-model',
    models: [],
    apiKey: '',
    stream: true,
    headers: [],
    ...patch,
  }
}

export interface HarnessOptions {
  settings?: Partial<AppSettings>
  frames?: FrameScheduler
  keys?: KeyAccess
  codeRunner?: WarmableCodeRunner
  loadEstimator?: () => Promise<(text: string) => Promise<number>>
  /** Replaces the fake-indexeddb runs repository (e.g. one whose save fails). */
  repository?: (db: WardflowDb) => RunServiceDeps['repository']
  /** What makes a fork's flow (asked for when a run is forked). */
  forks?: () => ForkHost
}

export interface Harness {
  service: AppRunService
  flows: FlowStore
  runs: RunStore
  notices: ReturnType<typeof createNoticeStore>
  db: WardflowDb
  settings: { value: AppSettings }
  /** Opens `doc` in the flow store. */
  open(doc: FlowDocument): void
  /** Starts a run and waits until it is saved. */
  runToEnd(): Promise<void>
  flushes: number
}

export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  await initI18n('en')
  const db = await freshDb()
  const flows = createFlowStore()
  const runs = createRunStore()
  const notices = createNoticeStore()
  const settings = {
    value: {
      ...defaultSettings(),
      providers: [{ ...DEMO_PROVIDER }],
      ...options.settings,
    } as AppSettings,
  }
  const state = { flushes: 0 }
  const deps: RunServiceDeps = {
    flows,
    runs,
    notices,
    settings: () => settings.value,
    registry: engineRegistry,
    flush: async () => {
      state.flushes += 1
    },
    repository: options.repository?.(db) ?? dexieRunsRepository(db),
    host: {
      clock: systemClock,
      fetch: (input, init) => fetch(input, init),
      createCodeRunner: () => options.codeRunner ?? fakeCodeRunner((request) => request.bindings['inputs']),
      loadEstimator:
        options.loadEstimator ?? (async () => async (text: string) => Math.ceil(text.length / 4)),
    },
    keys: options.keys,
    // Sub-flows come from the saved flows, as in the app (app/runs/install.ts).
    loadFlow: async (id) => (await loadFlow(db, id))?.doc,
    frames: options.frames ?? timerFrames,
    ...(options.forks
      ? {
          forks: {
            create: (doc) => (options.forks as () => ForkHost)().create(doc),
            restore: (snapshot) => (options.forks as () => ForkHost)().restore(snapshot),
            newFlowId: () => (options.forks as () => ForkHost)().newFlowId?.() ?? 'flow_fork',
            now: () => (options.forks as () => ForkHost)().now?.() ?? new Date().toISOString(),
          },
        }
      : {}),
    newRunId: (() => {
      let n = 0
      return () => `run_${++n}`
    })(),
  }
  const service = createRunService(deps)
  return {
    service,
    flows,
    runs,
    notices,
    db,
    settings,
    open: (doc) => flows.getState().actions.load(doc),
    runToEnd: async () => {
      service.run()
      await service.whenIdle()
    },
    get flushes() {
      return state.flushes
    },
  }
}

/** Polls `check` every few ms until it is true (or fails after `timeoutMs`). */
export async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
