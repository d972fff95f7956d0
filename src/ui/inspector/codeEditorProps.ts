import type { UpstreamGroup } from './fields/upstreamFields.ts'

export interface CodeEditorProps {
  id?: string
  value: string
  onChange(value: string): void
  language: 'javascript' | 'json' | 'markdown' | 'plaintext'
  ariaLabel: string
  describedBy?: string
  /** Height in lines of text shown without scrolling. */
  minLines?: number
  /** Shown, selectable and copyable, but not editable (a past run is open). */
  readOnly?: boolean
  /** A template field's upstream references: typing `{{` offers them (refCompletion.ts). */
  refs?: readonly UpstreamGroup[]
}
