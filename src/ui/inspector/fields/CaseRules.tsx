/** The rules of one condition case: value (with upstream field picker), op, `to`, ignore case. */
import { useTranslation } from 'react-i18next'
import { Button, IconButton } from '../../kit/Button.tsx'
import { CONDITION_OPS, UNARY_OPS, type ConditionOp, type ConditionRule } from './casesModel.ts'

import type { UpstreamGroup } from './upstreamFields.ts'

export type { UpstreamGroup }

interface Props {
  caseName: string
  rules: readonly ConditionRule[]
  upstream: readonly UpstreamGroup[]
  onChange(rules: ConditionRule[], subKey: string): void
}

export function CaseRules({ caseName, rules, upstream, onChange }: Props) {
  const { t } = useTranslation()
  const put = (index: number, patch: Partial<ConditionRule>, subKey: string): void =>
    onChange(
      rules.map((r, i) => {
        if (i !== index) return r
        const next: ConditionRule = { ...r, ...patch }
        if (next.ignoreCase !== true) delete next.ignoreCase
        return next
      }),
      `${index}.${subKey}`,
    )
  return (
    <div className="wf-case__rules">
      {rules.length === 0 ? <p className="wf-section-hint">{t('inspector:cases.noRules')}</p> : null}
      {rules.map((rule, index) => {
        const name = t('inspector:cases.ruleName', { case: caseName, n: index + 1 })
        return (
          <div
            className="wf-case__rule"
            data-testid="condition-rule"
            key={index}
            role="group"
            aria-label={name}
          >
            <input
              className="wf-input"
              aria-label={t('inspector:cases.value', { rule: name })}
              placeholder="{{node.field}}"
              value={rule.value}
              spellCheck={false}
              onChange={(e) => put(index, { value: e.target.value }, 'value')}
            />
            <select
              className="wf-select wf-case__pick"
              aria-label={t('inspector:cases.pick', { rule: name })}
              value=""
              onChange={(e) => {
                if (e.target.value !== '') put(index, { value: e.target.value }, 'pick')
              }}
            >
              <option value="">{t('inspector:cases.pickPrompt')}</option>
              {upstream.length === 0 ? (
                <option value="" disabled>
                  {t('inspector:cases.pickNone')}
                </option>
              ) : null}
              {upstream.map((g) => (
                <optgroup key={g.nodeId} label={g.label}>
                  {g.refs.map((ref) => (
                    <option key={ref} value={ref}>
                      {ref}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            <select
              className="wf-select"
              aria-label={t('inspector:cases.op', { rule: name })}
              value={rule.op}
              onChange={(e) => put(index, { op: e.target.value as ConditionOp }, 'op')}
            >
              {CONDITION_OPS.map((op) => (
                <option key={op} value={op}>
                  {t(`inspector:cases.ops.${op}`)}
                </option>
              ))}
            </select>
            {UNARY_OPS.has(rule.op) ? null : (
              <input
                className="wf-input"
                aria-label={t('inspector:cases.to', { rule: name })}
                value={rule.to}
                spellCheck={false}
                onChange={(e) => put(index, { to: e.target.value }, 'to')}
              />
            )}
            <label className="wf-check">
              <input
                type="checkbox"
                checked={rule.ignoreCase === true}
                onChange={(e) => put(index, { ignoreCase: e.target.checked }, 'ignoreCase')}
              />
              <span>{t('inspector:cases.ignoreCase')}</span>
            </label>
            <IconButton
              icon="trash"
              size="sm"
              label={t('inspector:cases.removeRule', { rule: name })}
              onClick={() =>
                onChange(
                  rules.filter((_, i) => i !== index),
                  'removeRule',
                )
              }
            />
          </div>
        )
      })}
      <Button
        size="sm"
        icon="plus"
        onClick={() => onChange([...rules, { value: '', op: 'equals', to: '' }], 'addRule')}
      >
        {t('inspector:cases.addRule', { case: caseName })}
      </Button>
    </div>
  )
}
