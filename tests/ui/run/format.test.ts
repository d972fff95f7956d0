import { describe, expect, it, vi } from 'vitest'
import { formatDuration, formatNumber } from '../../../src/ui/run/format.ts'

describe('run panel number formats', () => {
  it('groups digits in the UI language', () => {
    expect(formatNumber(1234567, 'en')).toBe('1,234,567')
    expect(formatNumber(1234567, 'de')).toBe('1.234.567')
  })

  it('makes one formatter per language and precision, then reuses it', () => {
    const Real = Intl.NumberFormat
    const made = vi.spyOn(Intl, 'NumberFormat').mockImplementation(function (
      ...args: ConstructorParameters<typeof Intl.NumberFormat>
    ) {
      return new Real(...args)
    } as typeof Intl.NumberFormat)
    try {
      for (let i = 0; i < 5; i += 1) {
        formatNumber(i, 'fr')
        formatDuration(1500 + i, 'fr')
      }
      // One plain formatter and one with a decimal for seconds, made on the first calls only.
      expect(made).toHaveBeenCalledTimes(2)
    } finally {
      made.mockRestore()
    }
  })

  it('keeps each language and precision apart', () => {
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
