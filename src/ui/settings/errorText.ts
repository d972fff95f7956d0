/**
 * Words for an error thrown by a settings service: the settings catalogue first
 * (`settings:errors.<code>`), then the shared error catalogue (`errors:<code>`), then the
 * error's own plain-English message.
 */
import type { i18n as I18n, TFunction } from 'i18next'

interface CodedError {
  code?: unknown
  message?: unknown
  details?: unknown
}

function detailsOf(error: CodedError): Record<string, unknown> {
  return typeof error.details === 'object' && error.details !== null
    ? (error.details as Record<string, unknown>)
    : {}
}

export function errorText(t: TFunction, i18n: I18n, error: unknown): string {
  const coded: CodedError = typeof error === 'object' && error !== null ? (error as CodedError) : {}
  const message = typeof coded.message === 'string' && coded.message !== '' ? coded.message : String(error)
  const details = detailsOf(coded)
  let code = typeof coded.code === 'string' ? coded.code : undefined
  // crypto.ts reports a too-short passphrase under WRONG_PASSPHRASE with `minChars`.
  if (code === 'WRONG_PASSPHRASE' && details.minChars !== undefined) code = 'PASSPHRASE_TOO_SHORT'
  if (code === undefined) return message
  for (const key of [`settings:errors.${code}`, `errors:${code}`]) {
    if (i18n.exists(key)) return t(key, { ...details, defaultValue: message })
  }
  return message
}
