/**
 * Validation issues in words any language can render. zod writes its messages in English (and
 * the CLI prints those); the UI shows a catalogue text instead, keyed by the issue's code
 * (`issues:validation.<code>`) with its values, or by the key a schema attached to a custom check
 * (`params.i18nKey`). Keeping the key beside the English message lets each reader choose.
 */

/** A catalogue key and its values, beside an issue's English message. */
export interface IssueText {
  key: string
  params?: Record<string, string | number>
}

/** The fields of a zod issue this reads (structural, so any zod build's issues fit). */
export interface ZodIssueLike {
  code?: string
  message: string
  expected?: unknown
  minimum?: unknown
  maximum?: unknown
  origin?: unknown
  format?: unknown
  keys?: unknown
  values?: unknown
  divisor?: unknown
  params?: unknown
}

/** Attach to a custom zod check (`params`) so its issue carries a catalogue key. */
export function issueKey(
  key: string,
  params: Record<string, string | number> = {},
): {
  i18nKey: string
  i18nParams: Record<string, string | number>
} {
  return { i18nKey: key, i18nParams: params }
}

function text(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => text(v)).join(', ')
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value)
  return JSON.stringify(value) ?? ''
}

/** zod's origins of a size check, folded into the three the catalogue words differently. */
const SIZE_KIND: Readonly<Record<string, string>> = {
  string: 'string',
  array: 'array',
  set: 'array',
  number: 'number',
  int: 'number',
  bigint: 'number',
  date: 'number',
}

/** The catalogue text of one zod issue. */
export function zodIssueText(issue: ZodIssueLike): IssueText {
  const params = issue.params
  if (params !== null && typeof params === 'object' && 'i18nKey' in params) {
    const own = params as { i18nKey: unknown; i18nParams?: unknown }
    if (typeof own.i18nKey === 'string') {
      const values = own.i18nParams
      return {
        key: own.i18nKey,
        params: values !== null && typeof values === 'object' ? (values as Record<string, string>) : {},
      }
    }
  }
  const origin = SIZE_KIND[text(issue.origin)] ?? 'other'
  switch (issue.code) {
    case 'invalid_type':
      return { key: 'issues:validation.invalid_type', params: { expected: text(issue.expected) } }
    case 'too_small':
      return { key: `issues:validation.too_small.${origin}`, params: { minimum: text(issue.minimum) } }
    case 'too_big':
      return { key: `issues:validation.too_big.${origin}`, params: { maximum: text(issue.maximum) } }
    case 'invalid_format':
      return { key: 'issues:validation.invalid_format', params: { format: text(issue.format) } }
    case 'invalid_value':
      return { key: 'issues:validation.invalid_value', params: { values: text(issue.values) } }
    case 'unrecognized_keys':
      return { key: 'issues:validation.unrecognized_keys', params: { keys: text(issue.keys) } }
    case 'not_multiple_of':
      return { key: 'issues:validation.not_multiple_of', params: { divisor: text(issue.divisor) } }
    case 'invalid_union':
      return { key: 'issues:validation.invalid_union' }
    default:
      return { key: 'issues:validation.invalid' }
  }
}
