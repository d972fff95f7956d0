/**
 * The live problems list under the canvas. Each entry names the node in words and, when
 * clicked, selects that node and brings it into view.
 */
import { useTranslation } from 'react-i18next'
import type { Problem } from '../../engine/index.ts'
import { flowStore } from '../../store/flowStore.ts'
import { useProblems } from '../../store/preflight.ts'
import { useUi, uiStore } from '../../store/uiStore.ts'
import { useCanvasCommands } from '../canvas/commands.ts'
import { Icon } from '../kit/icons.tsx'
import { problemText } from './problemText.ts'
import { ISSUES_NAMESPACE } from '../../i18n/index.ts'
import { useCatalogues } from '../useCatalogues.ts'

/** The problems' words load with the first open list that has at least one problem. */
const LIST_NAMESPACES = [ISSUES_NAMESPACE]

export function ProblemsPanel() {
  const { t } = useTranslation()
  const problems = useProblems()
  const open = useUi((s) => s.problemsOpen)
  const commands = useCanvasCommands()
  const listed = open && problems.length > 0
  const worded = useCatalogues(LIST_NAMESPACES, listed)
  // Read, not subscribed: a label edit re-runs preflight, which re-renders this list anyway,
  // while a drag (positions only) must not re-render it at all.
  const labels = new Map(flowStore.getState().nodes.map((n) => [n.id, n.data.label]))
  const errors = problems.filter((p) => p.severity === 'error').length
  const warnings = problems.length - errors

  const describe = (problem: Problem): string => problemText(problem, t, (id) => labels.get(id))

  const focus = (problem: Problem): void => {
    if (problem.nodeId && labels.has(problem.nodeId)) commands.focusNode(problem.nodeId)
    else if (problem.edgeId) flowStore.getState().actions.select([], [problem.edgeId])
  }

  return (
    <section
      className="wf-problems"
      data-open={open || undefined}
      aria-label={t('problems.title')}
      data-testid="problems-panel"
    >
      <button
        type="button"
        className="wf-problems__head"
        aria-expanded={open}
        onClick={() => uiStore.getState().setProblemsOpen(!open)}
      >
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
        <span className="wf-problems__title">{t('problems.title')}</span>
        {problems.length === 0 ? (
          <span className="wf-problems__ok">
            <Icon name="check" size={14} /> {t('problems.none')}
          </span>
        ) : (
          <span className="wf-problems__counts">
            {errors > 0 ? (
              <span className="wf-count wf-count--error">{t('problems.errors', { count: errors })}</span>
            ) : null}
            {warnings > 0 ? (
              <span className="wf-count wf-count--warning">
                {t('problems.warnings', { count: warnings })}
              </span>
            ) : null}
          </span>
        )}
      </button>
      {listed && worded ? (
        <ul className="wf-problems__list" data-testid="problems-list">
          {problems.map((problem, i) => (
            <li key={`${problem.code}-${problem.nodeId ?? problem.edgeId ?? ''}-${i}`}>
              <button
                type="button"
                className={`wf-problem wf-problem--${problem.severity}`}
                data-testid="problem-item"
                data-code={problem.code}
                data-node-id={problem.nodeId}
                onClick={() => focus(problem)}
              >
                <Icon name={problem.severity === 'error' ? 'error' : 'warning'} size={14} />
                <span>{describe(problem)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
