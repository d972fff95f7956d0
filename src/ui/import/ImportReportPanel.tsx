/**
 * The short note after an import that converted something (PatchCat files, repaired fields):
 * what was mapped, which nodes are unsupported placeholders, and storage's detailed notes.
 */
import { useTranslation } from 'react-i18next'
import { IconButton } from '../kit/Button.tsx'
import { useImportUi } from '../../store/importUiStore.ts'
import { noteText } from './noteText.ts'

export function ImportReportPanel() {
  const { t } = useTranslation('settings')
  const report = useImportUi((s) => s.report)
  const close = useImportUi((s) => s.showReport)
  if (report === null) return null
  const types = report.types.map((x) => `${x.type} × ${x.count}`).join(', ')
  return (
    <section
      className="wf-import-report"
      aria-labelledby="wf-import-report-title"
      data-testid="import-report"
    >
      <header>
        <h2 id="wf-import-report-title">
          {t(report.source === 'patchcat' ? 'import.reportPatchCat' : 'import.reportTitle', {
            name: report.flowName,
          })}
        </h2>
        <IconButton icon="close" size="sm" label={t('common.dismiss')} onClick={() => close(null)} />
      </header>
      <p role="status">
        {t('import.reportCounts', {
          nodes: report.nodeCount,
          edges: report.edgeCount,
          file: report.fileName,
        })}
      </p>
      {types !== '' ? <p className="wf-settings-hint">{t('import.reportTypes', { types })}</p> : null}
      {report.unsupported.length > 0 ? (
        <div className="wf-import-report__warn" data-testid="import-unsupported">
          <strong>{t('import.unsupportedTitle', { count: report.unsupported.length })}</strong>
          <ul>
            {report.unsupported.map((u) => (
              <li key={u.id}>
                <code>{u.id}</code> ({u.originalType})
              </li>
            ))}
          </ul>
          <span>{t('import.unsupportedHint')}</span>
        </div>
      ) : null}
      {report.notes.length > 0 ? (
        <details>
          <summary>{t('import.notes', { count: report.notes.length })}</summary>
          <ul className="wf-problem-list">
            {report.notes.map((note, i) => (
              <li key={i}>{noteText(report, note, t)}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  )
}
