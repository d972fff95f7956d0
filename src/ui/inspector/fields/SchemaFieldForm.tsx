/** The field-by-field part of the output schema editor: the top-level fields, and one to add. */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isValidFieldKey } from '../../../engine/index.ts'
import { Button, IconButton } from '../../kit/Button.tsx'
import {
  FIELD_TYPES,
  topFields,
  withField,
  withoutField,
  type FieldType,
  type Schema,
} from './schemaModel.ts'

export interface SchemaFieldFormProps {
  schema: Schema
  onChange(schema: Schema, subKey: string): void
}

export function SchemaFieldForm({ schema, onChange }: SchemaFieldFormProps) {
  const { t } = useTranslation()
  const [name, setName] = useState('')
  const [type, setType] = useState<FieldType>('string')
  const [values, setValues] = useState('')
  const [required, setRequired] = useState(true)
  const fields = topFields(schema)
  const trimmed = name.trim()
  const enumValues = values
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '')
  const problem =
    trimmed === ''
      ? null
      : !isValidFieldKey(trimmed)
        ? t('inspector:outputSchema.badName')
        : type === 'enum' && enumValues.length === 0
          ? t('inspector:outputSchema.noValues')
          : null
  const add = (): void => {
    if (trimmed === '' || problem !== null) return
    onChange(withField(schema, { name: trimmed, type, required, enumValues }), 'fields')
    setName('')
    setValues('')
  }
  return (
    <div className="wf-schema-fields">
      {fields.length === 0 ? <p className="wf-section-hint">{t('inspector:outputSchema.noFields')}</p> : null}
      {fields.map((field) => (
        <div
          className="wf-pairs__row"
          key={field.name}
          data-testid="schema-field-row"
          data-field={field.name}
        >
          <code className="wf-schema-fields__name">{field.name}</code>
          <span className="wf-schema-fields__type">
            {field.type === 'enum'
              ? `${t('inspector:outputSchema.types.enum')}: ${field.enumValues.join(', ')}`
              : t(`inspector:outputSchema.types.${field.type}`)}
            {field.required ? ` · ${t('inspector:outputSchema.requiredShort')}` : ''}
          </span>
          <IconButton
            icon="trash"
            size="sm"
            label={t('inspector:outputSchema.removeField', { field: field.name })}
            onClick={() => onChange(withoutField(schema, field.name), 'fields')}
          />
        </div>
      ))}
      <div className="wf-pairs__row">
        <input
          className="wf-input"
          data-testid="schema-field-name"
          aria-label={t('inspector:outputSchema.fieldName')}
          placeholder={t('inspector:outputSchema.fieldName')}
          value={name}
          spellCheck={false}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') add()
          }}
        />
        <select
          className="wf-select"
          data-testid="schema-field-type"
          aria-label={t('inspector:outputSchema.fieldType')}
          value={type}
          onChange={(e) => setType(e.target.value as FieldType)}
        >
          {FIELD_TYPES.map((option) => (
            <option key={option} value={option}>
              {t(`inspector:outputSchema.types.${option}`)}
            </option>
          ))}
        </select>
      </div>
      {type === 'enum' ? (
        <input
          className="wf-input"
          data-testid="schema-field-values"
          aria-label={t('inspector:outputSchema.enumValues')}
          placeholder={t('inspector:outputSchema.enumValues')}
          value={values}
          spellCheck={false}
          onChange={(e) => setValues(e.target.value)}
        />
      ) : null}
      <div className="wf-pairs__row">
        <label className="wf-check">
          <input
            type="checkbox"
            className="wf-checkbox"
            data-testid="schema-field-required"
            checked={required}
            onChange={(e) => setRequired(e.target.checked)}
          />
          <span>{t('inspector:outputSchema.required')}</span>
        </label>
        <Button
          size="sm"
          icon="plus"
          data-testid="schema-field-add"
          disabled={trimmed === '' || problem !== null}
          onClick={add}
        >
          {t('inspector:outputSchema.addField')}
        </Button>
      </div>
      {problem ? (
        <p className="wf-field__error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  )
}
