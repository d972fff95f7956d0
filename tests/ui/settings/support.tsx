/** Rendering the settings screen against the real services and a fake-indexeddb database. */
import { act, configure, render, screen, type RenderResult } from '@testing-library/react'
import type { ReactNode } from 'react'
import { ServicesContext, type AppServices } from '../../../src/ui/services.ts'
import { changeLanguage, initI18n, loadNamespaces, SETTINGS_NAMESPACES } from '../../../src/i18n/index.ts'
import type { Language } from '../../../src/settings/schema.ts'
import { ErrorBanner } from '../../../src/ui/kit/ErrorBanner.tsx'
import { ImportHost } from '../../../src/ui/import/ImportHost.tsx'
import { SettingsHost } from '../../../src/ui/settings/SettingsHost.tsx'
import { settingsUiStore, type SettingsTab } from '../../../src/store/settingsUiStore.ts'
import { createSettingsService, type AppSettingsService } from '../../../src/app/settings/settingsService.ts'
import { freshDb } from '../../storage/support.ts'
import { downloads, fakeFlows, type Downloads, type FakeFlows } from '../../app/settingsSupport.ts'
import type { WardflowDb } from '../../../src/storage/index.ts'
import { settingsStore } from '../../../src/store/settingsStore.ts'

// Key derivation (PBKDF2, 600 000 rounds) takes seconds on a busy 2-core machine.
configure({ asyncUtilTimeout: 10_000 })

export async function useLanguage(language: Language): Promise<void> {
  await initI18n(language)
  // The app loads the settings screen's English text with its code (app/areas.ts).
  await loadNamespaces(SETTINGS_NAMESPACES)
  await changeLanguage(language)
}

export interface SettingsHarness {
  db: WardflowDb
  service: AppSettingsService
  flows: FakeFlows
  files: Downloads
  view: RenderResult
}

export function Providers({ services, children }: { services: AppServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>
}

/** Loads settings from a fresh database, renders the settings host and opens `tab`. */
export async function renderSettings(
  tab: SettingsTab,
  db?: WardflowDb,
  language: Language = 'en',
): Promise<SettingsHarness> {
  const database = db ?? (await freshDb())
  const flows = fakeFlows()
  const files = downloads()
  const service = createSettingsService({
    db: database,
    fetch,
    flows,
    download: files.download,
    applyLanguage: changeLanguage,
  })
  await service.load()
  // The language is a setting: choosing it saves it and switches the UI.
  if (language !== 'en') await service.save({ ...settingsStore.getState().settings, language })
  const view = render(
    <Providers services={{ flows, settings: service.settings, settingsPanel: service.panel }}>
      <ErrorBanner />
      <SettingsHost />
      <ImportHost />
    </Providers>,
  )
  act(() => settingsUiStore.getState().openSettings(tab))
  await screen.findByTestId(`settings-panel-${tab}`)
  return { db: database, service, flows, files, view }
}
