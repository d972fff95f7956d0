/**
 * How an inheritable field's values read in the inspector ("on", "5 s", "unlimited"), in the
 * units the field is typed in, and the sentence that says where an empty field's value comes
 * from. Pure, so the unit tests compare it with what the engine runs with.
 */
import type { TFunction } from 'i18next'
import type { InheritedSetting } from '../../../engine/index.ts'
import type { FieldSpec } from '../../../nodes/types.ts'

const MS_PER_S = 1000

/** Factor from the shown (typed) unit to the stored one: timeouts are stored in ms, typed in s. */
export function displayScale(field: FieldSpec): number {
  return field.unit === 'ms' ? MS_PER_S : 1
}

/** The unit a person reads beside the field. */
export function displayUnit(field: FieldSpec): 's' | 'tokens' | undefined {
  return field.unit === 'ms' ? 's' : field.unit
}

/** A stored value as the field shows it: "on", "5 s", "10", "unlimited". */
export function formatSetting(value: unknown, field: FieldSpec, t: TFunction, locale: string): string {
  if (typeof value === 'boolean') return t(value ? 'inspector:value.on' : 'inspector:value.off')
  if (typeof value === 'number') {
    if (field.zeroMeansUnlimited && value === 0) return t('inspector:value.unlimited')
    const number = new Intl.NumberFormat(locale).format(value / displayScale(field))
    const unit = displayUnit(field)
    return unit === undefined ? number : `${number} ${t(`inspector:unit.${unit}`)}`
  }
  return typeof value === 'string' ? value : ''
}

/** "Inherited: on, from Settings" for an empty field; "Set on this node (Settings: on)" for a set one. */
export function inheritSentence(
  inherited: InheritedSetting,
  overridden: boolean,
  field: FieldSpec,
  t: TFunction,
  locale: string,
): string {
  const value = formatSetting(inherited.value, field, t, locale)
  const key = overridden ? 'inspector:overridden' : 'inspector:inherited'
  return t(`${key}.${inherited.source}`, { value })
}

/** Whether the node sets the field itself (null is how older files wrote "inherit"). */
export function isOverridden(value: unknown): boolean {
  return value !== undefined && value !== null
}
