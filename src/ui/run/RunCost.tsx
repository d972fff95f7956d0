/**
 * The run's cost in the run panel's bar (ui-contract `run-cost`): tokens and, when some call had
 * a known price, US dollars ("1,234 tokens · $0.0123"), the calls without a price counted at the
 * run's end; it follows the nodes as they finish (store/runSpent.ts). Opening it lists the nodes
 * that spent (title, tokens, dollars).
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useShallow } from 'zustand/react/shallow'
import { useFlowStore } from '../../store/flowStore.ts'
import type { NodeSpent, RunSpent } from '../../store/runSpent.ts'
import { formatNumber, formatUsd } from './format.ts'

/** The titles of the nodes that spent, shallow-compared (a drag leaves them alone). */
function useTitles(nodes: readonly NodeSpent[]): string[] {
  return useFlowStore(
    useShallow((s) => {
      if (nodes.length === 0) return []
      const found = new Map<string, string>()
      for (const n of s.nodes) found.set(n.id, n.data.label || n.id)
      return nodes.map((n) => found.get(n.nodeId) ?? n.nodeId)
    }),
  )
}

/** "1,234 tokens · $0.0123 + 2 unpriced calls", in the UI language. */
export function costFigure(
  spent: Pick<RunSpent, 'tokens' | 'costUsd' | 'priced' | 'unpricedCalls'>,
  t: (key: string, options?: Record<string, unknown>) => string,
  lang: string,
): string {
  const tokens = t('panel.tokens', { count: spent.tokens, formatted: formatNumber(spent.tokens, lang) })
  const parts = [spent.priced ? t('cost.figure', { tokens, usd: formatUsd(spent.costUsd, lang) }) : tokens]
  if (spent.unpricedCalls) parts.push(t('cost.unpriced', { count: spent.unpricedCalls }))
  return parts.join(' ')
}

function NodeRows({ nodes }: { nodes: readonly NodeSpent[] }) {
  const { t, i18n } = useTranslation('run')
  const titles = useTitles(nodes)
  return (
    <div className="wf-run-cost__pop">
      <table className="wf-run-cost__table">
        <caption>{t('cost.breakdown')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('cost.node')}</th>
            <th scope="col">{t('cost.tokens')}</th>
            <th scope="col">{t('cost.usd')}</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((node, i) => (
            <tr key={node.nodeId}>
              <th scope="row">{titles[i] ?? node.nodeId}</th>
              <td>{formatNumber(node.tokens, i18n.language)}</td>
              <td>
                {typeof node.costUsd === 'number'
                  ? formatUsd(node.costUsd, i18n.language)
                  : node.costUsd === null
                    ? t('cost.unpricedNode')
                    : '–'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function RunCost({ spent }: { spent: RunSpent }) {
  const { t, i18n } = useTranslation('run')
  // The table renders only while open: closed, the figure is the element's whole text, and
  // nothing follows the flow's node titles.
  const [open, setOpen] = useState(false)
  const figure = costFigure(spent, t, i18n.language)
  if (spent.nodes.length === 0) {
    return (
      <span className="wf-run-cost" data-testid="run-cost">
        {figure}
      </span>
    )
  }
  return (
    <details className="wf-run-cost" data-testid="run-cost" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary title={t('cost.hint')}>{figure}</summary>
      {open ? <NodeRows nodes={spent.nodes} /> : null}
    </details>
  )
}
