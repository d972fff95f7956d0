/** The danger-zone tab: clear cache, delete all flows, reset settings. Each asks for a typed phrase. */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { noticeStore } from '../../store/noticeStore.ts'
import { Button } from '../kit/Button.tsx'
import type { DangerCounts, SettingsPanelApi } from './api.ts'
import { DangerDialog, type DangerAction } from './DangerDialog.tsx'
import { errorText } from './errorText.ts'

const ACTIONS: ReadonlyArray<{ action: DangerAction; testId: string }> = [
  { action: 'clearCache', testId: 'danger-clear-cache' },
  { action: 'deleteAllFlows', testId: 'danger-delete-all-flows' },
  { action: 'resetSettings', testId: 'danger-reset-settings' },
]

export function DangerZone({ api }: { api: SettingsPanelApi }) {
  const { t, i18n } = useTranslation('settings')
  const [action, setAction] = useState<DangerAction | null>(null)
  const [counts, setCounts] = useState<DangerCounts | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  function start(next: DangerAction): void {
    setFailure(null)
    setCounts(null)
    setAction(next)
    api.dangerCounts().then(setCounts, (error: unknown) => {
      setAction(null)
      setFailure(errorText(t, i18n, error))
    })
  }

  async function run(which: DangerAction): Promise<void> {
    if (which === 'clearCache') await api.clearCache()
    else if (which === 'deleteAllFlows') await api.deleteAllFlows()
    else await api.resetSettings()
    noticeStore.getState().note(`settings:danger.${which}.done`, undefined, 'success')
  }

  return (
    <section className="wf-settings-section" data-testid="danger-zone">
      <p className="wf-settings-hint">{t('danger.intro')}</p>
      <ul className="wf-danger-actions">
        {ACTIONS.map(({ action: which, testId }) => (
          <li key={which}>
            <div>
              <strong>{t(`danger.${which}.title`)}</strong>
              <p className="wf-settings-hint">{t(`danger.${which}.summary`)}</p>
            </div>
            <Button variant="danger" data-testid={testId} onClick={() => start(which)}>
              {t(`danger.${which}.button`)}
            </Button>
          </li>
        ))}
      </ul>
      {failure !== null ? (
        <p className="wf-settings-error" role="alert">
          {failure}
        </p>
      ) : null}
      {action !== null ? (
        <DangerDialog
          action={action}
          counts={counts}
          onConfirm={() => run(action)}
          onClose={() => setAction(null)}
        />
      ) : null}
    </section>
  )
}
