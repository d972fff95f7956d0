/** What the last export or settings import did: redacted paths, kept keys, or why it was refused. */
import { useTranslation } from 'react-i18next'
import { IconButton } from '../kit/Button.tsx'
import { issueText } from '../kit/issueText.ts'
import type { ImportProblemText, SettingsImportOutcome } from './api.ts'

export type Outcome =
  | { type: 'sanitized'; fileName: string; redacted: string[] }
  | { type: 'full'; fileName: string }
  | { type: 'import'; result: Exclude<SettingsImportOutcome, { status: 'cancelled' }> }
  | { type: 'error'; text: string }

/** A refused file's problems in the UI's language, each after its JSON path. */
export function refusalLines(
  problems: readonly ImportProblemText[],
  t: (key: string, values?: Record<string, string | number>) => string,
): string[] {
  return problems.map((p) => {
    const text = issueText(t, p.key, p.params, p.message)
    return p.path === '' ? text : `${p.path}: ${text}`
  })
}

function Refusal({ message, lines, onDismiss }: { message: string; lines: string[]; onDismiss(): void }) {
  const { t } = useTranslation('settings')
  return (
    <div className="wf-banner wf-banner--inline" role="alert" data-testid="error-banner">
      <div className="wf-banner__text">
        <strong>{t('backup.refusedTitle')}</strong>
        {message}
        {lines.length > 0 ? (
          <ul className="wf-problem-list" data-testid="import-problems">
            {lines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <IconButton icon="close" size="sm" label={t('common.dismiss')} onClick={onDismiss} />
    </div>
  )
}

export function ImportOutcomeView({ outcome, onDismiss }: { outcome: Outcome; onDismiss(): void }) {
  const { t } = useTranslation('settings')
  if (outcome.type === 'error') return <Refusal message={outcome.text} lines={[]} onDismiss={onDismiss} />
  if (outcome.type === 'import' && outcome.result.status === 'refused') {
    const { problems, message } = outcome.result
    const lines = refusalLines(problems, t)
    // With its problems listed, the English summary (which repeats them) gives way to a worded one.
    const intro = problems.length > 0 ? t('backup.refusedIntro') : message
    return <Refusal message={intro} lines={lines} onDismiss={onDismiss} />
  }
  let title = ''
  let lines: string[] = []
  if (outcome.type === 'sanitized') {
    title = t('backup.sanitizedDone', { file: outcome.fileName, count: outcome.redacted.length })
    lines = outcome.redacted
  } else if (outcome.type === 'full') {
    title = t('backup.fullDone', { file: outcome.fileName })
  } else if (outcome.result.status === 'imported') {
    const r = outcome.result
    title = t(`backup.imported.${r.kind}`)
    if (r.keptKeysFor.length > 0) lines.push(t('backup.keptKeys', { ids: r.keptKeysFor.join(', ') }))
    for (const d of r.droppedKeys) {
      lines.push(
        t('backup.droppedKey', {
          name: d.label,
          from: d.from || t('backup.noOrigin'),
          to: d.to || t('backup.noOrigin'),
        }),
      )
    }
    if (r.demoRestored) lines.push(t('backup.demoRestored'))
    lines = [...lines, ...r.notes]
  }
  return (
    <div className="wf-outcome" role="status" data-testid="settings-outcome">
      <div>
        <strong>{title}</strong>
        {lines.length > 0 ? (
          <ul
            className="wf-problem-list"
            data-testid={outcome.type === 'sanitized' ? 'redacted-paths' : 'outcome-lines'}
          >
            {lines.map((line, i) => (
              <li key={i}>{outcome.type === 'sanitized' ? <code>{line}</code> : line}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <IconButton icon="close" size="sm" label={t('common.dismiss')} onClick={onDismiss} />
    </div>
  )
}
