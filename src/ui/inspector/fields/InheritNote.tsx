/**
 * Beside every inheritable field: what an empty field takes and where from ("Inherited: on,
 * from Settings"), or that the node sets it, with a button that drops the node's value so the
 * field inherits again.
 */
import { useTranslation } from 'react-i18next'
import type { InheritedSetting } from '../../../engine/index.ts'
import type { FieldSpec } from '../../../nodes/types.ts'
import { inheritSentence } from './inherit.ts'
import './inherit.css'

export interface InheritNoteProps {
  id: string
  field: FieldSpec
  inherited: InheritedSetting
  overridden: boolean
}

export function InheritNote({ id, field, inherited, overridden }: InheritNoteProps) {
  const { t, i18n } = useTranslation()
  return (
    <p
      className="wf-field__inherit"
      id={id}
      data-testid="inherit-note"
      data-source={inherited.source}
      data-overridden={overridden || undefined}
    >
      {inheritSentence(inherited, overridden, field, t, i18n.language)}
    </p>
  )
}

export function ResetToInherit({ label, onReset }: { label: string; onReset: () => void }) {
  const { t } = useTranslation()
  return (
    <button
      type="button"
      className="wf-link-btn wf-field__reset"
      aria-label={t('inspector:resetInherit', { field: label })}
      title={t('inspector:resetInherit', { field: label })}
      onClick={onReset}
    >
      {t('inspector:reset')}
    </button>
  )
}
