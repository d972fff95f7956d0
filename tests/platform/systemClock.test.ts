import { describe, expect, it } from 'vitest'
import { isAbortError } from '../../src/engine/index.ts'
import { systemClock } from '../../src/platform/systemClock.ts'

describe('systemClock', () => {
  it('tells wall time and sleeps for real', async () => {
    const before = systemClock.now()
    expect(Math.abs(before - Date.now())).toBeLessThan(50)
    await systemClock.sleep(20)
    expect(systemClock.now() - before).toBeGreaterThanOrEqual(19)
  })

  it('ends a sleep with an AbortError as soon as its signal aborts', async () => {
    const controller = new AbortController()
    const started = Date.now()
    const sleeping = systemClock.sleep(10_000, controller.signal)
    setTimeout(() => controller.abort(), 10)
    const error = await sleeping.catch((e: unknown) => e)
    expect(isAbortError(error)).toBe(true)
    expect(Date.now() - started).toBeLessThan(1_000)
    await expect(systemClock.sleep(10, controller.signal)).rejects.toMatchObject({ name: 'AbortError' })
  })
})
