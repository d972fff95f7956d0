/**
 * "With the last run's values this takes case X": the rules being edited, evaluated by the
 * engine's own condition function against the outputs the run store holds (the live run, or the
 * past run being looked at). Its own component: it re-renders with the run, the editor does not.
 */
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { ownValue } from '../../../engine/index.ts'
import { useRunStore } from '../../../store/runStore.ts'
import { ELSE_PORT, previewChoice, type ConditionCase } from './casesModel.ts'

export function CasePreview({ cases }: { cases: readonly ConditionCase[] }) {
  const { t } = useTranslation()
  const nodes = useRunStore((s) => s.nodes)
  const ran = useRunStore((s) => s.run !== null)
  const choice = useMemo(
    () => (ran ? previewChoice(cases, (id) => ownValue(nodes, id)?.output) : null),
    [ran, cases, nodes],
  )
  let text: string
  if (!ran) text = t('inspector:cases.previewNoRun')
  else if (choice === null) text = t('inspector:cases.previewUnreadable')
  else if (choice.taken === ELSE_PORT) text = t('inspector:cases.previewElse')
  else {
    const c = cases.find((x) => x.id === choice.taken)
    text = t('inspector:cases.previewCase', { case: c?.label?.trim() || choice.taken })
  }
  return (
    <p className="wf-case__preview" data-testid="condition-preview" data-case={choice?.taken} role="status">
      {text}
    </p>
  )
}
