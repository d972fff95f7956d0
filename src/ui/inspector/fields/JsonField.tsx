/**
 * Any JSON value, edited as text in Monaco. Text that does not parse is refused with the
 * parser's message and the config keeps its last valid value.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LazyCodeEditor } from '../LazyCodeEditor.tsx'

export function toJsonText(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2)
}

export type JsonVerdict = { ok: true; value: unknown } | { ok: false; message: string }

export function parseJsonText(text: string): JsonVerdict {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

export interface JsonEditorProps {
  id?: string
  value: unknown
  label: string
  describedBy?: string
  onChange(value: unknown): void
  onRefuse?(message: string | null): void
  /** Extra check on a parsed value; returns an i18n-ready message to refuse it. */
  validate?(value: unknown): string | null
  minLines?: number
}

export function JsonEditor({
  id,
  value,
  label,
  describedBy,
  onChange,
  onRefuse,
  validate,
  minLines,
}: JsonEditorProps) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState<string | null>(null)
  return (
    <LazyCodeEditor
      id={id}
      value={draft ?? toJsonText(value)}
      language="json"
      ariaLabel={label}
      describedBy={describedBy}
      minLines={minLines}
      onChange={(text) => {
        setDraft(text)
        const parsed = parseJsonText(text)
        const problem = parsed.ok
          ? (validate?.(parsed.value) ?? null)
          : t('inspector:invalidJson', { message: parsed.message })
        onRefuse?.(problem)
        if (parsed.ok && problem === null) onChange(parsed.value)
      }}
    />
  )
}
