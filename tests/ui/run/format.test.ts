import { describe, expect, it } from 'vitest'
import { formatDuration, formatNumber } from '../../../src/ui/run/format.ts'

describe('run panel number formats', () => {
  it('groups digits in the UI language', () => {
    expect(formatNumber(1234567, 'en')).toBe('1,234,567')
    expect(formatNumber(1234567, 'de')).toBe('1.234.567')
  })

  it('keeps each language and precision apart while reusing formatters', () => {
    // Seconds get one decimal; whole numbers keep their default precision, in either order.
    expect(formatDuration(1234, 'en')).toBe('1.2 s')
    expect(formatNumber(1.2345, 'en')).toBe('1.235')
    expect(formatDuration(1234, 'de')).toBe('1,2 s')
    expect(formatDuration(1234, 'en')).toBe('1.2 s')
    expect(formatNumber(1.2345, 'en')).toBe('1.235')
  })

  it('shows milliseconds, seconds and minutes', () => {
    expect(formatDuration(340.4, 'en')).toBe('340 ms')
    expect(formatDuration(-5, 'en')).toBe('0 ms')
    expect(formatDuration(59_940, 'en')).toBe('59.9 s')
    expect(formatDuration(125_000, 'en')).toBe('2 min 5 s')
  })
})
