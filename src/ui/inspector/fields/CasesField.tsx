/**
 * The condition node's cases, edited as a form instead of JSON: add, remove and reorder cases
 * (id, label, match all/any) and their rules (CaseRules). A case id that cannot be saved (bad
 * characters, `else`, a repeat) is refused in place and the config keeps its last valid shape,
 * so the node's handles (and the edges on them) never flicker to a fallback while typing.
 */
import './cases.css'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button, IconButton } from '../../kit/Button.tsx'
import { CasePreview } from './CasePreview.tsx'
import { CaseRules } from './CaseRules.tsx'
import { asCases, caseIdProblem, freshCaseId, moved, type ConditionCase } from './casesModel.ts'
import { useUpstreamRefs } from './useUpstreamRefs.ts'
import type { FieldProps } from './types.ts'

export function CasesField({ nodeId, inputId, value, onChange }: FieldProps) {
  const { t } = useTranslation()
  const cases = useMemo(() => asCases(value), [value])
  // Fields from schemas, else from the last run's values (a structured output's data fields).
  const upstream = useUpstreamRefs(nodeId)
  // Refused ids: case index -> what the person typed.
  const [idDrafts, setIdDrafts] = useState<Record<number, string>>({})

  const write = (next: ConditionCase[], subKey: string): void => onChange(next, subKey)
  const put = (index: number, patch: Partial<ConditionCase>, subKey: string): void =>
    write(
      cases.map((c, i) => (i === index ? { ...c, ...patch } : c)),
      `${index}.${subKey}`,
    )
  const setId = (index: number, id: string): void => {
    if (caseIdProblem(cases, index, id) !== null) {
      setIdDrafts((d) => ({ ...d, [index]: id }))
      return
    }
    setIdDrafts((d) => {
      const rest = { ...d }
      delete rest[index]
      return rest
    })
    put(index, { id }, 'id')
  }
  const reorder = (from: number, to: number, subKey: string): void => {
    setIdDrafts({})
    write(moved(cases, from, to), subKey)
  }

  return (
    <div className="wf-cases" id={inputId}>
      {cases.length === 0 ? <p className="wf-section-hint">{t('inspector:cases.empty')}</p> : null}
      {cases.map((c, index) => {
        const name = c.label?.trim() || c.id
        const draft = idDrafts[index]
        const problem = draft === undefined ? null : caseIdProblem(cases, index, draft)
        return (
          <fieldset className="wf-case" data-testid="condition-case" data-case-id={c.id} key={index}>
            <legend className="wf-case__legend">{t('inspector:cases.caseN', { n: index + 1, name })}</legend>
            <div className="wf-case__head">
              <label className="wf-case__labelled">
                <span>{t('inspector:cases.id')}</span>
                <input
                  className="wf-input"
                  aria-invalid={problem ? true : undefined}
                  value={draft ?? c.id}
                  spellCheck={false}
                  onChange={(e) => setId(index, e.target.value)}
                />
              </label>
              <label className="wf-case__labelled">
                <span>{t('inspector:cases.label')}</span>
                <input
                  className="wf-input"
                  value={c.label ?? ''}
                  onChange={(e) => put(index, { label: e.target.value }, 'label')}
                />
              </label>
              <label className="wf-case__labelled">
                <span>{t('inspector:cases.match')}</span>
                <select
                  className="wf-select"
                  value={c.match}
                  onChange={(e) => put(index, { match: e.target.value === 'any' ? 'any' : 'all' }, 'match')}
                >
                  <option value="all">{t('inspector:cases.matchAll')}</option>
                  <option value="any">{t('inspector:cases.matchAny')}</option>
                </select>
              </label>
            </div>
            {problem ? (
              <p className="wf-field__error" role="alert">
                {t(`inspector:cases.idProblem.${problem}`, { id: draft })}
              </p>
            ) : null}
            <CaseRules
              caseName={name}
              rules={c.rules}
              upstream={upstream}
              onChange={(rules, subKey) => put(index, { rules }, `rules.${subKey}`)}
            />
            <div className="wf-case__actions">
              <Button
                size="sm"
                aria-label={t('inspector:cases.moveUp', { case: name })}
                disabled={index === 0}
                onClick={() => reorder(index, index - 1, 'moveUp')}
              >
                {t('inspector:cases.up')}
              </Button>
              <Button
                size="sm"
                aria-label={t('inspector:cases.moveDown', { case: name })}
                disabled={index === cases.length - 1}
                onClick={() => reorder(index, index + 1, 'moveDown')}
              >
                {t('inspector:cases.down')}
              </Button>
              <IconButton
                icon="trash"
                size="sm"
                label={t('inspector:cases.remove', { case: name })}
                onClick={() => {
                  setIdDrafts({})
                  write(
                    cases.filter((_, i) => i !== index),
                    'remove',
                  )
                }}
              />
            </div>
          </fieldset>
        )
      })}
      <Button
        size="sm"
        icon="plus"
        data-testid="condition-add-case"
        onClick={() => {
          const id = freshCaseId(cases)
          write([...cases, { id, match: 'all', rules: [{ value: '', op: 'equals', to: '' }] }], 'add')
        }}
      >
        {t('inspector:cases.add')}
      </Button>
      <CasePreview cases={cases} />
    </div>
  )
}
