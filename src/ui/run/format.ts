/** Numbers, durations and times as the run panel shows them, in the UI language. */
import { USD_MIN_DIGITS, USD_SMALL_BELOW, USD_SMALL_MAX_DIGITS } from '../../defaults.ts'

const MS_PER_SECOND = 1000
const SECONDS_PER_MINUTE = 60

const numberFormats = new Map<string, Intl.NumberFormat>()

/**
 * One Intl.NumberFormat per language and precision, made on first use. Making one is costly
 * (the page's first loads the locale's data: ~4 ms of a fresh page's first run), and the run
 * panel formats its figures on every batch while a reply streams.
 */
function numberFormat(language: string, maximumFractionDigits?: number): Intl.NumberFormat {
  const key = `${language}|${maximumFractionDigits ?? ''}`
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits })
    numberFormats.set(key, format)
  }
  return format
}

export function formatNumber(value: number, language: string): string {
  return numberFormat(language).format(value)
}

/** `340 ms`, `1.2 s`, `2 min 5 s`. */
export function formatDuration(ms: number, language: string): string {
  const safe = Math.max(0, ms)
  if (safe < MS_PER_SECOND) return `${formatNumber(Math.round(safe), language)} ms`
  const seconds = safe / MS_PER_SECOND
  if (seconds < SECONDS_PER_MINUTE) {
    return `${numberFormat(language, 1).format(seconds)} s`
  }
  const minutes = Math.floor(seconds / SECONDS_PER_MINUTE)
  return `${formatNumber(minutes, language)} min ${formatNumber(Math.round(seconds % SECONDS_PER_MINUTE), language)} s`
}

/** The time of day for runs of today, date and time for older ones. */
export function formatTime(epochMs: number, language: string, now: number = Date.now()): string {
  const date = new Date(epochMs)
  const today = new Date(now).toDateString() === date.toDateString()
  return today
    ? date.toLocaleTimeString(language)
    : date.toLocaleString(language, { dateStyle: 'short', timeStyle: 'medium' })
}

/** Pretty JSON for inputs and outputs; strings stay as they are. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}

const usdFormats = new Map<string, Intl.NumberFormat>()

/** US dollars in the UI language: `$0.00`, `$0.0123`, `$12.40` (more decimals under USD_SMALL_BELOW). */
export function formatUsd(value: number, language: string): string {
  const small = Math.abs(value) < USD_SMALL_BELOW
  const key = `${language}|${small}`
  let format = usdFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: USD_MIN_DIGITS,
      maximumFractionDigits: small ? USD_SMALL_MAX_DIGITS : USD_MIN_DIGITS,
    })
    usdFormats.set(key, format)
  }
  return format.format(value)
}
