/** Token usage as a figure: "1,234 tokens" with an "estimated" marker when a tokenizer counted it. */
import { useTranslation } from 'react-i18next'
import type { Usage } from '../../engine/index.ts'
import { formatNumber } from './format.ts'

export function UsageFigure({ usage, hideTotal = false }: { usage: Usage; hideTotal?: boolean }) {
  const { t, i18n } = useTranslation('run')
  return (
    <span className="wf-run-usage" data-estimated={usage.estimated || undefined}>
      {hideTotal
        ? null
        : t('panel.tokens', { count: usage.total, formatted: formatNumber(usage.total, i18n.language) })}
      {usage.estimated ? (
        <span className="wf-run-usage__estimated" title={t('panel.estimatedHint')}>
          {' '}
          ({t('panel.estimated')})
        </span>
      ) : null}
    </span>
  )
}
