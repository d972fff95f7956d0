/**
 * Settings export (sanitized / full), import, and the list of earlier exports with download,
 * restore and delete. Import failures are shown here as an alert and change nothing.
 */
import { useEffect, useId, useState, type ChangeEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../kit/Button.tsx'
import type { SettingsImportOutcome, SettingsPanelApi } from './api.ts'
import { errorText } from './errorText.ts'
import { ExportList } from './ExportList.tsx'
import { ImportOutcomeView, type Outcome } from './ImportOutcome.tsx'
import { settingsUiStore } from '../../store/settingsUiStore.ts'

export function BackupTab({ api }: { api: SettingsPanelApi }) {
  const { t, i18n } = useTranslation('settings')
  const inputId = useId()
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    api.refreshExports().catch(() => {
      // The list stays as it was; the export buttons still work.
    })
  }, [api])

  async function guarded(work: () => Promise<Outcome | null>): Promise<void> {
    setBusy(true)
    setOutcome(null)
    try {
      setOutcome(await work())
    } catch (error) {
      setOutcome({ type: 'error', text: errorText(t, i18n, error) })
    } finally {
      setBusy(false)
    }
  }

  const fromImport = (result: SettingsImportOutcome): Outcome | null =>
    result.status === 'cancelled' ? null : { type: 'import', result }

  function exportSanitized(): void {
    void guarded(async () => ({ type: 'sanitized', ...(await api.exportSanitized()) }))
  }

  function exportFull(): void {
    void guarded(async () => {
      const ui = settingsUiStore.getState()
      // A full export carries the keys: locked ones are unlocked first (for this session).
      if (ui.keyState === 'locked') {
        const unlocked = await ui.askPassphrase({
          purpose: 'unlockKeys',
          confirm: false,
          verify: (p) => api.unlockKeys(p),
        })
        if (unlocked === null) return null
      }
      const passphrase = await settingsUiStore
        .getState()
        .askPassphrase({ purpose: 'exportFull', confirm: true })
      if (passphrase === null) return null
      return { type: 'full', ...(await api.exportFull(passphrase)) }
    })
  }

  function importFile(event: ChangeEvent<HTMLInputElement>): void {
    const file = event.target.files?.[0]
    // Reset so choosing the same file again fires another change.
    event.target.value = ''
    if (file === undefined) return
    void guarded(async () => fromImport(await api.importSettingsFile(file)))
  }

  return (
    <section className="wf-settings-section" data-testid="backup-tab">
      <h3>{t('backup.exportTitle')}</h3>
      <p className="wf-settings-hint">{t('backup.exportIntro')}</p>
      <div className="wf-settings-actions wf-settings-actions--start">
        <Button
          icon="download"
          data-testid="settings-export-sanitized"
          disabled={busy}
          onClick={exportSanitized}
        >
          {t('backup.exportSanitized')}
        </Button>
        <Button icon="download" data-testid="settings-export-full" disabled={busy} onClick={exportFull}>
          {t('backup.exportFull')}
        </Button>
      </div>
      <h3>{t('backup.importTitle')}</h3>
      <div className="wf-field">
        <label htmlFor={inputId}>{t('backup.importLabel')}</label>
        <input
          id={inputId}
          className="wf-file-input"
          type="file"
          accept=".json,application/json"
          data-testid="settings-import-input"
          disabled={busy}
          onChange={importFile}
        />
        <span className="wf-settings-hint">{t('backup.importHint')}</span>
      </div>
      {outcome !== null ? <ImportOutcomeView outcome={outcome} onDismiss={() => setOutcome(null)} /> : null}
      <h3>{t('backup.listTitle')}</h3>
      <ExportList
        busy={busy}
        onDownload={(id) => void guarded(async () => (await api.downloadExport(id), null))}
        onRestore={(id) => void guarded(async () => fromImport(await api.restoreExport(id)))}
        onDelete={(id) => void guarded(async () => (await api.deleteExport(id), null))}
      />
    </section>
  )
}
