/** Picks the control for a FieldSpec kind and frames it with its label, help and messages. */
import { memo, useCallback, useId, useState, type ComponentType } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldKind, FieldSpec } from '../../../nodes/types.ts'
import { flowStore } from '../../../store/flowStore.ts'
import { BooleanField, SelectField, TextField } from './basic.tsx'
import { FieldShell } from './FieldShell.tsx'
import { JsonEditor } from './JsonField.tsx'
import { NumberField } from './NumberField.tsx'
import { PairsField } from './PairsField.tsx'
import { ModelField, ProviderField } from './ProviderFields.tsx'
import { CodeField, TextAreaField } from './TextAreaField.tsx'
import { ToolsField } from './ToolsField.tsx'
import type { FieldProps } from './types.ts'

function JsonField(props: FieldProps) {
  return (
    <JsonEditor
      id={props.inputId}
      value={props.value}
      label={props.label}
      describedBy={props.describedBy}
      onChange={(v) => props.onChange(v)}
      onRefuse={props.onRefuse}
    />
  )
}

const CONTROLS: Record<FieldKind, ComponentType<FieldProps>> = {
  text: TextField,
  textarea: TextAreaField,
  code: CodeField,
  number: NumberField,
  boolean: BooleanField,
  select: SelectField,
  provider: ProviderField,
  model: ModelField,
  keyValues: PairsField,
  record: PairsField,
  tools: ToolsField,
  json: JsonField,
}

/** Kinds whose control is a group of inputs (labelled as a group, not one input). */
const GROUPS: ReadonlySet<FieldKind> = new Set(['keyValues', 'record', 'tools', 'code', 'json'])

export interface FieldControlProps {
  nodeId: string
  field: FieldSpec
  value: unknown
  config: Readonly<Record<string, unknown>>
  issue?: string
}

export const FieldControl = memo(function FieldControl({
  nodeId,
  field,
  value,
  config,
  issue,
}: FieldControlProps) {
  const { t } = useTranslation()
  const inputId = useId()
  const helpId = `${inputId}-help`
  const [refusal, setRefusal] = useState<string | null>(null)
  const Control = CONTROLS[field.kind] ?? TextField
  const label = t(field.labelKey)
  const help = field.helpKey ? t(field.helpKey) : undefined
  const message = refusal ?? issue ?? null

  const onChange = useCallback(
    (next: unknown, subKey?: string) => {
      const group = subKey === undefined ? undefined : `config:${nodeId}:${field.key}:${subKey}`
      flowStore.getState().actions.setConfigField(nodeId, field.key, next, group)
    },
    [nodeId, field.key],
  )

  const describedBy =
    [help ? helpId : null, message ? `${helpId}-error` : null].filter(Boolean).join(' ') || undefined
  const control = (
    <Control
      nodeId={nodeId}
      field={field}
      value={value}
      config={config}
      issue={issue}
      inputId={inputId}
      describedBy={describedBy}
      label={label}
      onChange={onChange}
      onRefuse={setRefusal}
    />
  )
  if (field.kind === 'boolean') {
    return (
      <div className="wf-field wf-field--inline">
        <label className="wf-check">
          {control}
          <span className="wf-field__label">{label}</span>
        </label>
        {help ? (
          <p className="wf-field__help" id={helpId}>
            {help}
          </p>
        ) : null}
      </div>
    )
  }
  return (
    <FieldShell
      inputId={inputId}
      label={label}
      help={help}
      helpId={helpId}
      message={message}
      asGroup={GROUPS.has(field.kind)}
    >
      {control}
    </FieldShell>
  )
})
