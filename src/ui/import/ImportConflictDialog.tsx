/** Asked when an imported file's flow id matches a saved flow: import as a copy, replace it, or cancel. */
import { useTranslation } from 'react-i18next'
import { Button } from '../kit/Button.tsx'
import { Dialog } from '../kit/Dialog.tsx'
import { useImportUi } from '../../store/importUiStore.ts'

export function ImportConflictDialog() {
  const { t } = useTranslation('settings')
  const conflict = useImportUi((s) => s.conflict)
  const answer = useImportUi((s) => s.answerConflict)
  if (conflict === null) return null
  const choose = (choice: 'copy' | 'replace' | 'cancel') => () => answer(conflict.id, choice)
  return (
    <Dialog
      open
      size="sm"
      title={t('import.conflictTitle')}
      closeLabel={t('common.close')}
      onClose={choose('cancel')}
      testId="import-conflict-dialog"
      footer={
        <>
          <Button onClick={choose('cancel')} data-testid="import-cancel">
            {t('common.cancel')}
          </Button>
          <Button variant="danger" onClick={choose('replace')} data-testid="import-replace">
            {t('import.replace')}
          </Button>
          <Button variant="primary" data-autofocus onClick={choose('copy')} data-testid="import-as-copy">
            {t('import.asCopy')}
          </Button>
        </>
      }
    >
      <p>
        {t('import.conflictText', {
          file: conflict.fileName,
          existing: conflict.existingName,
          imported: conflict.importedName,
        })}
      </p>
    </Dialog>
  )
}
