/**
 * The `approval-request` card in a node's console: one pending tool call of that node, its
 * arguments editable as JSON before approving. Everything the model sent is shown as text.
 * A lazy chunk: LazyApprovalCards.tsx loads it when a node first has a pending approval.
 * A question restored after a reload says what answering it does (the run continues from the
 * Agent, which starts again), since that is not what the same buttons do in a live run.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { approvalStore, pendingKey, type PendingApproval } from '../../../store/approvalStore.ts'

export default function ApprovalCard({ pending }: { pending: PendingApproval }) {
  const { t } = useTranslation('run')
  const [argsText, setArgsText] = useState(pending.argsText)
  const [always, setAlways] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  const approve = (): void => {
    const refused = approvalStore.answer(pendingKey(pending), { decision: 'approved', argsText, always })
    if (refused) setProblem(t(`approval.refused.${refused}`))
  }
  const reject = (): void => {
    const refused = approvalStore.answer(pendingKey(pending), { decision: 'rejected' })
    if (refused) setProblem(t(`approval.refused.${refused}`))
  }
  return (
    <div className="wf-approval" data-testid="approval-request" role="group" aria-label={t('approval.title')}>
      <div className="wf-approval__title">{t('approval.asks', { tool: pending.tool })}</div>
      {pending.restored ? (
        <p className="wf-approval__restored" data-restored="true">
          {t('approval.restored')}
        </p>
      ) : null}
      <label className="wf-approval__args">
        {t('approval.arguments')}
        <textarea
          value={argsText}
          spellCheck={false}
          rows={4}
          onChange={(event) => {
            setArgsText(event.target.value)
            setProblem(undefined)
          }}
        />
      </label>
      {problem ? (
        <div className="wf-approval__problem" role="alert">
          {problem}
        </div>
      ) : null}
      <label className="wf-approval__always">
        <input type="checkbox" checked={always} onChange={(event) => setAlways(event.target.checked)} />
        {t('approval.always')}
      </label>
      <div className="wf-approval__actions">
        <button type="button" data-testid="approval-approve" onClick={approve}>
          {t('approval.approve')}
        </button>
        <button type="button" data-testid="approval-reject" onClick={reject}>
          {t('approval.reject')}
        </button>
      </div>
    </div>
  )
}
