/**
 * Checks a number typed into a settings field against its range from defaults.ts. Out-of-range
 * input is refused with a reason, never clamped (issue 4, item 6).
 */
import type { NumberRange } from '../../defaults.ts'

export type RangeProblem = 'required' | 'notNumber' | 'notInteger' | 'tooLow' | 'tooHigh'

export type RangeCheck = { ok: true; value: number } | { ok: false; problem: RangeProblem }

/**
 * `scale` converts what the person types into the stored unit: seconds typed for a range kept
 * in milliseconds use `scale: 1000`, and the bounds are compared in stored units.
 */
export function checkRange(text: string, range: NumberRange, scale = 1, integer = true): RangeCheck {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, problem: 'required' }
  const typed = Number(trimmed)
  if (!Number.isFinite(typed)) return { ok: false, problem: 'notNumber' }
  if (integer && !Number.isInteger(typed)) return { ok: false, problem: 'notInteger' }
  const value = typed * scale
  if (value < range.min) return { ok: false, problem: 'tooLow' }
  if (value > range.max) return { ok: false, problem: 'tooHigh' }
  return { ok: true, value }
}

/** The range in the unit the person types (e.g. seconds for a millisecond range). */
export function displayRange(range: NumberRange, scale = 1): { min: number; max: number } {
  return { min: range.min / scale, max: range.max / scale }
}

export type OptionalRangeCheck =
  { ok: true; value: number | undefined } | { ok: false; problem: RangeProblem }

/** As checkRange, for a field whose empty text means "none" (a limit not set): empty is fine. */
export function checkOptionalRange(text: string, range: NumberRange, integer = true): OptionalRangeCheck {
  return text.trim() === '' ? { ok: true, value: undefined } : checkRange(text, range, 1, integer)
}

/**
 * The `step` of a number input for `range` in typed units: whole steps for integers (the
 * range's own step when it has one), else the range's step, or any decimal when it has none
 * (HTML's "any", so the browser does not flag 0.05 as off-step).
 */
export function inputStep(range: NumberRange, integer: boolean, scale = 1): number | 'any' {
  if (integer) return range.step === undefined ? 1 : Math.max(1, range.step / scale)
  return range.step ?? 'any'
}
