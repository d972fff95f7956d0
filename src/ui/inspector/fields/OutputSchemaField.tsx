/**
 * Structured output of a model node: `{ schema, repairAttempts }`. The schema is edited in Monaco,
 * field by field for the common cases, or made from an example JSON value.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { STRUCTURED_REPAIR_ATTEMPTS, STRUCTURED_REPAIR_ATTEMPTS_RANGE } from '../../../defaults.ts'
import { Button } from '../../kit/Button.tsx'
import { JsonEditor, parseJsonText } from './JsonField.tsx'
import { SchemaFieldForm } from './SchemaFieldForm.tsx'
import { emptyObjectSchema, schemaFromExample, type Schema } from './schemaModel.ts'
import type { FieldProps } from './types.ts'

interface OutputValue {
  schema: Schema
  repairAttempts: number
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function outputOf(value: unknown): OutputValue | undefined {
  if (!isRecord(value) || !isRecord(value['schema'])) return undefined
  const attempts = value['repairAttempts']
  return {
    schema: value['schema'],
    repairAttempts: typeof attempts === 'number' ? attempts : STRUCTURED_REPAIR_ATTEMPTS,
  }
}

export function OutputSchemaField({ inputId, describedBy, value, label, onChange, onRefuse }: FieldProps) {
  const { t } = useTranslation()
  // Bumped when the form or an example replaces the schema, so Monaco shows the new text.
  const [revision, setRevision] = useState(0)
  const [example, setExample] = useState('')
  const [exampleError, setExampleError] = useState<string | null>(null)
  const output = outputOf(value)
  if (!output) {
    return (
      <div id={inputId}>
        <Button
          size="sm"
          icon="plus"
          data-testid="output-schema-enable"
          aria-describedby={describedBy}
          onClick={() =>
            onChange({ schema: emptyObjectSchema(), repairAttempts: STRUCTURED_REPAIR_ATTEMPTS })
          }
        >
          {t('inspector:outputSchema.enable')}
        </Button>
      </div>
    )
  }
  const replace = (schema: Schema, subKey: string): void => {
    onChange({ ...output, schema }, subKey)
    setRevision((r) => r + 1)
  }
  const fromExample = (): void => {
    const parsed = parseJsonText(example)
    if (!parsed.ok) {
      setExampleError(t('inspector:invalidJson', { message: parsed.message }))
      return
    }
    setExampleError(null)
    replace(schemaFromExample(parsed.value), 'example')
  }
  return (
    <div className="wf-output-schema" id={inputId} data-testid="output-schema">
      <SchemaFieldForm schema={output.schema} onChange={replace} />
      <JsonEditor
        key={revision}
        value={output.schema}
        label={t('inspector:outputSchema.schema', { field: label })}
        describedBy={describedBy}
        minLines={6}
        onRefuse={onRefuse}
        validate={(next) => (isRecord(next) ? null : t('inspector:outputSchema.notObject'))}
        onChange={(schema) => onChange({ ...output, schema }, 'schema')}
      />
      <details className="wf-output-schema__example">
        <summary>{t('inspector:outputSchema.fromExample')}</summary>
        <textarea
          className="wf-input"
          data-testid="schema-example"
          aria-label={t('inspector:outputSchema.example')}
          rows={4}
          spellCheck={false}
          value={example}
          onChange={(e) => setExample(e.target.value)}
        />
        <Button
          size="sm"
          data-testid="schema-from-example"
          disabled={example.trim() === ''}
          onClick={fromExample}
        >
          {t('inspector:outputSchema.makeSchema')}
        </Button>
        {exampleError ? (
          <p className="wf-field__error" role="alert">
            {exampleError}
          </p>
        ) : null}
      </details>
      <label className="wf-field__label">
        {t('inspector:outputSchema.repairAttempts')}
        <input
          className="wf-input"
          type="number"
          data-testid="schema-repair-attempts"
          min={STRUCTURED_REPAIR_ATTEMPTS_RANGE.min}
          max={STRUCTURED_REPAIR_ATTEMPTS_RANGE.max}
          step={STRUCTURED_REPAIR_ATTEMPTS_RANGE.step}
          value={output.repairAttempts}
          onChange={(e) => {
            const n = Number(e.target.value)
            const { min, max } = STRUCTURED_REPAIR_ATTEMPTS_RANGE
            if (Number.isInteger(n) && n >= min && n <= max)
              onChange({ ...output, repairAttempts: n }, 'attempts')
          }}
        />
      </label>
      <Button size="sm" icon="trash" data-testid="output-schema-remove" onClick={() => onChange(undefined)}>
        {t('inspector:outputSchema.remove')}
      </Button>
    </div>
  )
}
