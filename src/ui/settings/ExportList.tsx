/** The earlier settings exports (IndexedDB `exports`), newest first, each with download / restore / delete. */
import { useTranslation } from 'react-i18next'
import { Button } from '../kit/Button.tsx'
import { useSettingsUi } from '../../store/settingsUiStore.ts'

export interface ExportListProps {
  busy: boolean
  onDownload(id: string): void
  onRestore(id: string): void
  onDelete(id: string): void
}

function sizeText(bytes: number, language: string): string {
  const kb = bytes / 1024
  const format = new Intl.NumberFormat(language, { maximumFractionDigits: 1 })
  return kb < 1 ? `${bytes} B` : `${format.format(kb)} KB`
}

export function ExportList({ busy, onDownload, onRestore, onDelete }: ExportListProps) {
  const { t, i18n } = useTranslation('settings')
  const exports = useSettingsUi((s) => s.exports)
  if (exports.length === 0) {
    return (
      <p className="wf-settings-hint" data-testid="settings-export-list" data-count={0}>
        {t('backup.listEmpty')}
      </p>
    )
  }
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <ul className="wf-export-list" data-testid="settings-export-list" data-count={exports.length}>
      {exports.map((entry) => (
        <li
          key={entry.id}
          data-testid="settings-export-item"
          data-kind={entry.kind}
          data-export-id={entry.id}
        >
          <div className="wf-export-list__text">
            <strong>{entry.fileName}</strong>
            <span className="wf-settings-hint">
              {t(`backup.kind.${entry.kind}`)} · {when.format(new Date(entry.createdAt))} ·{' '}
              {sizeText(entry.size, i18n.language)}
            </span>
          </div>
          <Button
            size="sm"
            icon="download"
            disabled={busy}
            onClick={() => onDownload(entry.id)}
            aria-label={t('backup.downloadOne', { file: entry.fileName })}
          >
            {t('backup.download')}
          </Button>
          <Button
            size="sm"
            icon="upload"
            disabled={busy}
            onClick={() => onRestore(entry.id)}
            aria-label={t('backup.restoreOne', { file: entry.fileName })}
          >
            {t('backup.restore')}
          </Button>
          <Button
            size="sm"
            variant="danger"
            icon="trash"
            disabled={busy}
            onClick={() => onDelete(entry.id)}
            aria-label={t('backup.deleteOne', { file: entry.fileName })}
          >
            {t('backup.delete')}
          </Button>
        </li>
      ))}
    </ul>
  )
}
