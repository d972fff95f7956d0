/**
 * A loop body node's console for one picked iteration: that iteration's lines only (its record in
 * the run store), drawn once by the same ConsoleContent; the live console returns when the loop's
 * picker follows the latest again. Text only.
 */
import { useTranslation } from 'react-i18next'
import { iterationLabel, type IterationRecord } from '../../../store/iterationRecords.ts'
import { ConsoleContent } from './ConsoleContent.tsx'

const NO_LINES: NonNullable<IterationRecord['lines']> = []

export function IterationConsole({
  record,
  testIds = true,
}: {
  record: IterationRecord | null
  testIds?: boolean
}) {
  const { t } = useTranslation('run')
  return (
    <>
      <div className="wf-run-console__iteration" role="note" data-testid="console-iteration">
        {record ? t('iterations.console', { key: iterationLabel(record.key) }) : t('iterations.consoleNone')}
      </div>
      <ConsoleContent lines={record?.lines ?? NO_LINES} cut={false} testIds={testIds} />
      {record?.cut ? <div className="wf-run-muted">{t('iterations.consoleCut')}</div> : null}
    </>
  )
}
