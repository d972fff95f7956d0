/** "Delete this flow?": says what goes (the flow and its run history) and that it cannot be undone. */
import { useTranslation } from 'react-i18next'
import type { FlowSummary } from '../../store/libraryStore.ts'
import { Button } from '../kit/Button.tsx'
import { Dialog } from '../kit/Dialog.tsx'

export function ConfirmDeleteDialog({
  flow,
  onCancel,
  onConfirm,
}: {
  flow: FlowSummary | null
  onCancel(): void
  onConfirm(): void
}) {
  const { t } = useTranslation()
  return (
    <Dialog
      open={flow !== null}
      title={t('flows.confirmDelete.title')}
      onClose={onCancel}
      closeLabel={t('common.close')}
      size="sm"
      testId="confirm-delete-flow"
      footer={
        <>
          <Button onClick={onCancel} data-autofocus>
            {t('common.cancel')}
          </Button>
          <Button variant="danger" icon="trash" onClick={onConfirm} data-testid="confirm-delete-flow-button">
            {t('flows.confirmDelete.confirm')}
          </Button>
        </>
      }
    >
      <p>{t('flows.confirmDelete.body', { name: flow?.name ?? '' })}</p>
    </Dialog>
  )
}
