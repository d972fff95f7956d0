/** What the inspector shows without a single selected node: a hint, or what a multi-selection allows. */
import { useTranslation } from 'react-i18next'
import { PASTE_OFFSET_PX } from '../../defaults.ts'
import { flowStore, useFlowStore, useReadOnly } from '../../store/flowStore.ts'
import { Button } from '../kit/Button.tsx'
import { Icon } from '../kit/icons.tsx'
import { FlowLimits } from './FlowLimits.tsx'

export function SelectionSummary({ count }: { count: number }) {
  const { t } = useTranslation()
  if (count === 0) {
    return (
      <div className="wf-inspector__empty">
        <Icon name="edit" size={22} />
        <p>{t('inspector.nothingSelected')}</p>
        <p className="wf-section-hint">{t('inspector.nothingSelectedHint')}</p>
        <ReuseSetting />
        <FlowLimits />
      </div>
    )
  }
  const actions = flowStore.getState().actions
  return (
    <div className="wf-inspector__empty">
      <p>{t('inspector.manySelected', { count })}</p>
      <div className="wf-inspector__multi">
        <Button
          icon="copy"
          size="sm"
          onClick={() => actions.duplicateSelection({ x: PASTE_OFFSET_PX, y: PASTE_OFFSET_PX })}
        >
          {t('toolbar.duplicate')}
        </Button>
        <Button icon="trash" size="sm" variant="danger" onClick={() => actions.removeSelection()}>
          {t('inspector.deleteSelected')}
        </Button>
      </div>
    </div>
  )
}

/** The flow's "reuse unchanged results" setting for full runs (off by default; issue 19). */
function ReuseSetting() {
  const { t } = useTranslation()
  const on = useFlowStore((s) => s.metadata?.reuseUnchanged === true)
  const present = useFlowStore((s) => s.metadata !== null)
  const readOnly = useReadOnly()
  if (!present) return null
  return (
    <label className="wf-section-hint">
      <input
        type="checkbox"
        data-testid="flow-reuse-unchanged"
        checked={on}
        disabled={readOnly}
        onChange={(event) => flowStore.getState().actions.setReuseUnchanged(event.target.checked)}
      />{' '}
      {t('inspector.reuseUnchanged')}
    </label>
  )
}
