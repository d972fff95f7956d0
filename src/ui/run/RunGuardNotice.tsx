/**
 * The whole-run budget's hint or trip as one line of the run panel (ui-contract `run-guard`),
 * naming the node whose call crossed the line: a trip stops every node at once, so the reason
 * must be readable where the run's outcome is, not only in one node's console.
 */
import { useTranslation } from 'react-i18next'
import { useFlowStore } from '../../store/flowStore.ts'
import type { RunGuardLine } from '../../store/runGuard.ts'
import { formatNumber, formatUsd } from './format.ts'

export function RunGuardNotice({ guard }: { guard: RunGuardLine }) {
  const { t, i18n } = useTranslation('run')
  const lang = i18n.language
  const node = useFlowStore((s) => {
    const found = s.nodes.find((n) => n.id === guard.nodeId)
    return found?.data.label || guard.nodeId
  })
  const amount = (value: number): string =>
    guard.unit === 'usd'
      ? formatUsd(value, lang)
      : t('panel.tokens', { count: value, formatted: formatNumber(value, lang) })
  const text = t(guard.level === 'trip' ? 'runGuard.trip' : 'runGuard.hint', {
    total: amount(guard.total),
    budget: amount(guard.budget),
    node,
  })
  return (
    <p
      className={`wf-run-guard wf-run-guard--${guard.level}`}
      data-testid="run-guard"
      data-level={guard.level}
      data-unit={guard.unit}
      role={guard.level === 'trip' ? 'alert' : 'status'}
    >
      {text}
    </p>
  )
}
