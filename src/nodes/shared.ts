/** Small helpers shared by the node folders: summaries and ranged number schemas. */
import { z } from '../zodMini.ts'
import { NODE_SUMMARY_MAX_CHARS, type NumberRange } from '../defaults.ts'

/** The first non-empty line of `text`, cut to NODE_SUMMARY_MAX_CHARS with an ellipsis. */
export function firstLine(text: string): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  return line.length > NODE_SUMMARY_MAX_CHARS ? `${line.slice(0, NODE_SUMMARY_MAX_CHARS - 1)}…` : line
}

/** A number inside `range`; values outside are refused with a message, never clamped. */
export function rangedNumber(range: NumberRange, integer = true) {
  return (integer ? z.int() : z.number()).check(z.gte(range.min), z.lte(range.max))
}
