/**
 * Confirmation for a danger-zone action: says exactly what goes and what stays (with counts),
 * and keeps the confirm button disabled until the phrase of the UI language is typed exactly
 * (no trimming, no case folding). Escape cancels.
 */
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../kit/Button.tsx'
import { Dialog } from '../kit/Dialog.tsx'
import type { DangerCounts } from './api.ts'
import { errorText } from './errorText.ts'

export type DangerAction = 'clearCache' | 'deleteAllFlows' | 'resetSettings'

export interface DangerDialogProps {
  action: DangerAction
  /** null while the counts load. */
  counts: DangerCounts | null
  onConfirm(): Promise<void>
  onClose(): void
}

/** True only for the exact phrase: `clear cache` or ` CLEAR CACHE` do not count. */
export function phraseMatches(typed: string, phrase: string): boolean {
  return typed === phrase
}

function Lines({ items, testId }: { items: string[]; testId: string }) {
  return (
    <ul className="wf-danger-list" data-testid={testId}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  )
}

export function DangerDialog({ action, counts, onConfirm, onClose }: DangerDialogProps) {
  const { t, i18n } = useTranslation('settings')
  const [typed, setTyped] = useState('')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const inputId = useId()
  const phrase = t(`danger.${action}.phrase`)
  const matches = phraseMatches(typed, phrase)

  const c = counts ?? { flows: 0, runs: 0, exports: 0, caches: 0, keys: 0, keysLocked: false, providers: 0 }
  const values = {
    flows: c.flows,
    runs: c.runs,
    exports: c.exports,
    caches: c.caches,
    providers: c.providers,
    keysText: c.keysLocked ? t('danger.keysLocked') : t('danger.keysCount', { count: c.keys }),
  }
  const goes = t(`danger.${action}.goes`, { returnObjects: true, ...values }) as unknown
  const stays = t(`danger.${action}.stays`, { returnObjects: true, ...values }) as unknown
  const list = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []

  async function confirm(event: FormEvent): Promise<void> {
    event.preventDefault()
    if (!matches || busy) return
    setBusy(true)
    setFailure(null)
    try {
      await onConfirm()
      onClose()
    } catch (error) {
      setBusy(false)
      setFailure(errorText(t, i18n, error))
    }
  }

  return (
    <Dialog
      open
      size="md"
      title={t(`danger.${action}.title`)}
      closeLabel={t('common.close')}
      onClose={onClose}
      testId="danger-dialog"
    >
      <form className="wf-settings-form" onSubmit={(e) => void confirm(e)} noValidate>
        {counts === null ? (
          <p role="status">{t('common.loading')}</p>
        ) : (
          <div className="wf-danger-summary">
            <div>
              <h3>{t('danger.goesTitle')}</h3>
              <Lines items={list(goes)} testId="danger-goes" />
            </div>
            <div>
              <h3>{t('danger.staysTitle')}</h3>
              <Lines items={list(stays)} testId="danger-stays" />
            </div>
          </div>
        )}
        <div className="wf-field">
          <label htmlFor={inputId}>
            {t('danger.typePhrase')} <code className="wf-danger-phrase">{phrase}</code>
          </label>
          <input
            id={inputId}
            className="wf-input"
            data-testid="danger-confirm-input"
            data-autofocus
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        {failure !== null ? (
          <p className="wf-settings-error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="wf-settings-actions">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="submit"
            variant="danger"
            disabled={!matches || busy || counts === null}
            data-testid="danger-confirm-button"
          >
            {t(`danger.${action}.confirm`)}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
