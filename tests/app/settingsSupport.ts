/** Shared helpers for the settings / import-export service tests: stores, fakes, passphrase answers. */
import { vi } from 'vitest'
import { defaultSettings } from '../../src/settings/schema.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { libraryStore } from '../../src/store/libraryStore.ts'
import { noticeStore } from '../../src/store/noticeStore.ts'
import { settingsStore } from '../../src/store/settingsStore.ts'
import { importUiStore } from '../../src/store/importUiStore.ts'
import { settingsUiStore } from '../../src/store/settingsUiStore.ts'
import type { FlowsService } from '../../src/ui/services.ts'
import { createSettingsService, type AppSettingsService } from '../../src/app/settings/settingsService.ts'
import type { WardflowDb } from '../../src/storage/index.ts'

/** Puts every singleton store back to its first state (tests share the module instances). */
export function resetStores(): void {
  settingsStore.setState({ settings: defaultSettings(), loaded: false })
  settingsUiStore.setState({
    open: false,
    tab: 'providers',
    keyState: 'plain',
    exports: [],
    passphrase: null,
  })
  importUiStore.setState({ conflict: null, report: null })
  noticeStore.setState({ banner: null, notes: [] })
  libraryStore.setState({ flows: [], ready: false })
  flowStore.getState().actions.unload()
}

export interface FakeFlows extends FlowsService {
  created: number
  opened: string[]
  flushed: number
}

/** A FlowsService that records what it was asked; `create` opens an empty flow in the store. */
export function fakeFlows(): FakeFlows {
  const flows: FakeFlows = {
    created: 0,
    opened: [],
    flushed: 0,
    create: vi.fn(async () => {
      flows.created += 1
      const stamp = new Date().toISOString()
      flowStore.getState().actions.load({
        metadata: {
          id: `new_${flows.created}`,
          name: 'Untitled',
          description: '',
          tags: [],
          createdAt: stamp,
          updatedAt: stamp,
        },
        viewport: { x: 0, y: 0, zoom: 1 },
        nodes: [],
        edges: [],
      })
    }),
    open: vi.fn(async (id: string) => {
      flows.opened.push(id)
    }),
    rename: vi.fn(async () => {}),
    duplicate: vi.fn(async () => {}),
    remove: vi.fn(async () => {}),
    flush: vi.fn(async () => {
      flows.flushed += 1
    }),
  }
  return flows
}

export interface Downloads {
  files: Array<{ fileName: string; text: string }>
  download(fileName: string, text: string): void
}

export function downloads(): Downloads {
  const files: Downloads['files'] = []
  return { files, download: (fileName, text) => void files.push({ fileName, text }) }
}

/** A settings service over `db` with fakes for the browser parts. */
export function settingsServiceFor(
  db: WardflowDb,
  extra: { flows?: FlowsService; files?: Downloads; fetch?: typeof fetch } = {},
): AppSettingsService {
  return createSettingsService({
    db,
    fetch: extra.fetch ?? fetch,
    flows: extra.flows ?? fakeFlows(),
    download: (extra.files ?? downloads()).download,
    applyLanguage: async () => {},
  })
}

/**
 * Answers the next passphrase prompts like a person would: each string is typed (and checked
 * by the prompt's verify, retrying with the next answer when it fails); null cancels.
 * Returns the reasons verify gave for refused answers.
 */
export function answerPassphrases(answers: Array<string | null>): { refusals: unknown[]; stop(): void } {
  const refusals: unknown[] = []
  const queue = [...answers]
  let busy = false
  const handle = async (): Promise<void> => {
    const request = settingsUiStore.getState().passphrase
    if (request === null || busy) return
    busy = true
    try {
      while (settingsUiStore.getState().passphrase?.id === request.id) {
        const next = queue.shift()
        if (next === undefined || next === null) {
          settingsUiStore.getState().answerPassphrase(request.id, null)
          break
        }
        try {
          await request.verify?.(next)
          settingsUiStore.getState().answerPassphrase(request.id, next)
        } catch (error) {
          refusals.push(error)
        }
      }
    } finally {
      busy = false
    }
    void handle()
  }
  const stop = settingsUiStore.subscribe(() => void handle())
  return { refusals, stop }
}
