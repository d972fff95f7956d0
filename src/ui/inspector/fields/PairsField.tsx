/**
 * Lists of key/value pairs: `keyValues` ([{key, value}], HTTP headers and query) and `record`
 * ({ [key]: value }, Input and Output values). A record key that is empty or already used is
 * refused in place (the object could not hold it) and the config keeps its last valid shape.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button, IconButton } from '../../kit/Button.tsx'
import type { FieldProps } from './types.ts'

type Pair = { key: string; value: string }

function asPairs(value: unknown): Pair[] {
  if (!Array.isArray(value)) return []
  return value.map((v: unknown) => {
    const r = (v ?? {}) as Record<string, unknown>
    return {
      key: typeof r['key'] === 'string' ? r['key'] : '',
      value: typeof r['value'] === 'string' ? r['value'] : '',
    }
  })
}

function asRecord(value: unknown): Pair[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return []
  return Object.entries(value as Record<string, unknown>).map(([key, v]) => ({
    key,
    value: typeof v === 'string' ? v : JSON.stringify(v),
  }))
}

function toRecord(pairs: readonly Pair[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const p of pairs) out[p.key] = p.value
  return out
}

function freshKey(pairs: readonly Pair[], stem: string): string {
  const used = new Set(pairs.map((p) => p.key))
  if (!used.has(stem)) return stem
  let n = 2
  while (used.has(`${stem}_${n}`)) n += 1
  return `${stem}_${n}`
}

export function PairsField({ inputId, value, field, onChange, label }: FieldProps) {
  const { t } = useTranslation()
  const isRecord = field.kind === 'record'
  const pairs = isRecord ? asRecord(value) : asPairs(value)
  // Refused record keys: row index -> the text the person typed.
  const [keyDrafts, setKeyDrafts] = useState<Record<number, string>>({})

  const write = (next: Pair[], subKey: string): void => onChange(isRecord ? toRecord(next) : next, subKey)

  const setKey = (index: number, key: string): void => {
    if (isRecord) {
      const clash = key.trim() === '' || pairs.some((p, i) => i !== index && p.key === key)
      if (clash) {
        setKeyDrafts((d) => ({ ...d, [index]: key }))
        return
      }
      setKeyDrafts((d) => {
        const rest = { ...d }
        delete rest[index]
        return rest
      })
    }
    write(
      pairs.map((p, i) => (i === index ? { ...p, key } : p)),
      `${index}.key`,
    )
  }

  return (
    <div className="wf-pairs" id={inputId}>
      {pairs.length === 0 ? <p className="wf-section-hint">{t('inspector:pairs.empty')}</p> : null}
      {pairs.map((pair, index) => {
        const draft = keyDrafts[index]
        const keyError =
          draft === undefined
            ? null
            : draft.trim() === ''
              ? t('inspector:pairs.emptyKey')
              : t('inspector:pairs.duplicateKey', { key: draft })
        return (
          <div className="wf-pairs__row" key={index}>
            <input
              className="wf-input wf-pairs__key"
              aria-label={t('inspector:pairs.key', { field: label, n: index + 1 })}
              aria-invalid={keyError ? true : undefined}
              value={draft ?? pair.key}
              spellCheck={false}
              onChange={(e) => setKey(index, e.target.value)}
            />
            <input
              className="wf-input wf-pairs__value"
              aria-label={t('inspector:pairs.value', { field: label, n: index + 1 })}
              value={pair.value}
              spellCheck={false}
              onChange={(e) =>
                write(
                  pairs.map((p, i) => (i === index ? { ...p, value: e.target.value } : p)),
                  `${index}.value`,
                )
              }
            />
            <IconButton
              icon="trash"
              size="sm"
              label={t('inspector:pairs.remove', { field: label, n: index + 1 })}
              onClick={() => {
                setKeyDrafts({})
                write(
                  pairs.filter((_, i) => i !== index),
                  'remove',
                )
              }}
            />
            {keyError ? (
              <p className="wf-field__error wf-pairs__error" role="alert">
                {keyError}
              </p>
            ) : null}
          </div>
        )
      })}
      <Button
        size="sm"
        icon="plus"
        onClick={() =>
          write(
            [...pairs, { key: isRecord ? freshKey(pairs, t('inspector:pairs.newKey')) : '', value: '' }],
            'add',
          )
        }
      >
        {t('inspector:pairs.add')}
      </Button>
    </div>
  )
}
