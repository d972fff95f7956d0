/**
 * A template textarea that completes references: typing `{{` lists the upstream fields (from
 * schemas, else from the last run's values); arrows pick, Enter or Tab inserts, Escape closes.
 */
import { useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { INSPECTOR_REF_SUGGESTIONS } from '../../../defaults.ts'
import { matchingRefs, openReference, type UpstreamGroup } from './upstreamFields.ts'

export interface RefTextareaProps {
  /** The upstream references (useUpstreamRefs), computed by the field that holds both editors. */
  groups: readonly UpstreamGroup[]
  id: string
  value: string
  rows: number
  describedBy?: string
  invalid: boolean
  onChange(text: string): void
}

export function RefTextarea({ groups, id, value, rows, describedBy, invalid, onChange }: RefTextareaProps) {
  const { t } = useTranslation()
  const area = useRef<HTMLTextAreaElement>(null)
  const [caret, setCaret] = useState<number | null>(null)
  const [active, setActive] = useState(0)
  const [closedAt, setClosedAt] = useState<number | null>(null)
  const open = caret === null || closedAt === caret ? undefined : openReference(value, caret)
  const options = open ? matchingRefs(groups, open.typed, INSPECTOR_REF_SUGGESTIONS) : []
  const listId = `${id}-refs`

  const insert = (ref: string): void => {
    if (!open || caret === null) return
    const next = value.slice(0, open.start) + ref + value.slice(caret)
    const at = open.start + ref.length
    onChange(next)
    setCaret(at)
    setClosedAt(at)
    requestAnimationFrame(() => area.current?.setSelectionRange(at, at))
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (options.length === 0) return
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      const step = e.key === 'ArrowDown' ? 1 : -1
      setActive((a) => (a + step + options.length) % options.length)
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault()
      insert(options[Math.min(active, options.length - 1)] as string)
    } else if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      setClosedAt(caret)
    }
  }
  const track = (): void => {
    const at = area.current?.selectionStart ?? null
    if (at !== caret) setActive(0)
    setCaret(at)
  }
  return (
    <div className="wf-ref-textarea">
      <textarea
        ref={area}
        id={id}
        className="wf-textarea"
        value={value}
        rows={rows}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        aria-autocomplete="list"
        aria-controls={options.length > 0 ? listId : undefined}
        aria-expanded={options.length > 0}
        spellCheck={false}
        onChange={(e) => {
          onChange(e.target.value)
          setCaret(e.target.selectionStart)
          setActive(0)
        }}
        onKeyDown={onKeyDown}
        onKeyUp={(e) => {
          if (e.key.startsWith('Arrow') && options.length > 0) return
          track()
        }}
        onClick={track}
        onBlur={() => setCaret(null)}
      />
      {options.length > 0 ? (
        <ul
          className="wf-ref-suggestions"
          id={listId}
          role="listbox"
          aria-label={t('inspector:refSuggestions')}
          data-testid="ref-suggestions"
        >
          {options.map((ref, i) => (
            <li
              key={ref}
              role="option"
              aria-selected={i === active}
              data-testid="ref-suggestion"
              className={i === active ? 'wf-ref-suggestions__item is-active' : 'wf-ref-suggestions__item'}
              // mousedown, not click: the textarea keeps its caret (a click would blur it first).
              onMouseDown={(e) => {
                e.preventDefault()
                insert(ref)
              }}
            >
              {ref}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
