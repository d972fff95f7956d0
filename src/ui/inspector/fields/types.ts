/** What every inspector field receives. `onChange` writes one config key as one undo step. */
import type { InheritedSetting } from '../../../engine/index.ts'
import type { FieldSpec } from '../../../nodes/types.ts'

export interface FieldProps {
  nodeId: string
  field: FieldSpec
  value: unknown
  /** The whole config, for fields that depend on a sibling (model list of the chosen provider). */
  config: Readonly<Record<string, unknown>>
  /** What the field takes when the node leaves it empty (inheritable fields only). */
  inherited?: InheritedSetting
  /** Schema validation message for this key, if any. */
  issue?: string
  /** DOM id of the control, so the visible <label> names it. */
  inputId: string
  /** Id of the help/issue text, for aria-describedby. */
  describedBy?: string
  label: string
  /** `subKey` makes edits of one sub-part (a row, a tool field) group as their own typing burst. */
  onChange(value: unknown, subKey?: string): void
  /** Refuses the value inside the field (e.g. out of range) or clears the refusal. */
  onRefuse?(message: string | null): void
}
