/** Saved / saving / not saved: the autosave state, announced politely. */
import { useTranslation } from 'react-i18next'
import { useLibrary } from '../../store/libraryStore.ts'
import { Icon } from '../kit/icons.tsx'

export function SaveIndicator() {
  const { t } = useTranslation()
  const status = useLibrary((s) => s.saveStatus)
  return (
    <span
      className={`wf-save wf-save--${status}`}
      role="status"
      aria-live="polite"
      data-testid="save-status"
      data-status={status}
    >
      {status === 'error' ? (
        <Icon name="warning" size={14} />
      ) : status === 'saved' ? (
        <Icon name="check" size={14} />
      ) : null}
      {status === 'idle' ? '' : t(`save.${status}`)}
    </span>
  )
}
