/** Picks the control for a FieldSpec kind and frames it with its label, help and messages. */
import { memo, useCallback, useId, useState, type ComponentType } from 'react'
import { useTranslation } from 'react-i18next'
import type { InheritedSetting } from '../../../engine/index.ts'
import type { FieldKind, FieldSpec } from '../../../nodes/types.ts'
import { flowStore } from '../../../store/flowStore.ts'
import { CasesField } from './CasesField.tsx'
import { BooleanField, SelectField, TextField } from './basic.tsx'
import { FieldHelp, FieldShell } from './FieldShell.tsx'
import { FlowField, FlowInputsField } from './FlowFields.tsx'
import { isOverridden } from './inherit.ts'
import { InheritNote, ResetToInherit } from './InheritNote.tsx'
import { JsonEditor } from './JsonField.tsx'
import { NumberField } from './NumberField.tsx'
import { OutputSchemaField } from './OutputSchemaField.tsx'
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
  flow: FlowField,
  flowInputs: FlowInputsField,
  cases: CasesField,
  outputSchema: OutputSchemaField,
}

/** Kinds whose control is a group of inputs (labelled as a group, not one input). */
const GROUPS: ReadonlySet<FieldKind> = new Set([
  'keyValues',
  'record',
  'tools',
  'code',
  'json',
  'flowInputs',
  'cases',
  'outputSchema',
])

export interface FieldControlProps {
  nodeId: string
  field: FieldSpec
  value: unknown
  config: Readonly<Record<string, unknown>>
  issue?: string
  /** What the field takes when empty; given for the node type's inheritable fields. */
  inherited?: InheritedSetting
}

export const FieldControl = memo(function FieldControl({
  nodeId,
  field,
  value,
  config,
  issue,
  inherited,
}: FieldControlProps) {
  const { t } = useTranslation()
  const inputId = useId()
  const helpId = `${inputId}-help`
  const noteId = `${inputId}-inherit`
  const [refusal, setRefusal] = useState<string | null>(null)
  // Bumped by a reset, so a control drops what was typed in it (a refused draft) with the value.
  const [generation, setGeneration] = useState(0)
  const Control = CONTROLS[field.kind] ?? TextField
  const label = t(field.labelKey)
  const help = field.helpKey ? t(field.helpKey) : undefined
  const message = refusal ?? issue ?? null
  const overridden = isOverridden(value)

  const onChange = useCallback(
    (next: unknown, subKey?: string) => {
      const group = subKey === undefined ? undefined : `config:${nodeId}:${field.key}:${subKey}`
      flowStore.getState().actions.setConfigField(nodeId, field.key, next, group)
    },
    [nodeId, field.key],
  )
  const reset = useCallback(() => {
    setRefusal(null)
    setGeneration((g) => g + 1)
    // Its own undo step, even right after a toggle of the same field.
    flowStore
      .getState()
      .actions.setConfigField(nodeId, field.key, undefined, `config:${nodeId}:${field.key}:reset`)
  }, [nodeId, field.key])

  const describedBy =
    [inherited ? noteId : null, help ? helpId : null, message ? `${helpId}-error` : null]
      .filter(Boolean)
      .join(' ') || undefined
  const control = (
    <Control
      key={generation}
      nodeId={nodeId}
      field={field}
      value={value}
      config={config}
      issue={issue}
      inherited={inherited}
      inputId={inputId}
      describedBy={describedBy}
      label={label}
      onChange={onChange}
      onRefuse={setRefusal}
    />
  )
  const note = inherited ? (
    <InheritNote id={noteId} field={field} inherited={inherited} overridden={overridden} />
  ) : null
  const resetButton = inherited && overridden ? <ResetToInherit label={label} onReset={reset} /> : null
  if (field.kind === 'boolean') {
    return (
      <div
        className="wf-field wf-field--inline"
        data-testid="inspector-field"
        data-field-key={field.key}
        data-inherits={inherited ? !overridden : undefined}
      >
        <div className="wf-field__row">
          <label className="wf-check">
            {control}
            <span className="wf-field__label">{label}</span>
          </label>
          {resetButton}
        </div>
        {note}
        <FieldHelp help={help} helpId={helpId} />
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
      trailing={resetButton}
      note={note}
      fieldKey={field.key}
      inherits={inherited ? !overridden : undefined}
    >
      {control}
    </FieldShell>
  )
})
