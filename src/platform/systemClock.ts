/**
 * The real Clock for the app and the CLI: wall time and timers, with sleeps that end early
 * (rejecting with an AbortError) when their signal aborts.
 */
import type { Clock } from '../engine/index.ts'

function abortReason(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason
  return reason instanceof Error && reason.name === 'AbortError'
    ? reason
    : new DOMException('The operation was aborted.', 'AbortError')
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    if (signal?.aborted) return Promise.reject(abortReason(signal))
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer)
        reject(abortReason(signal as AbortSignal))
      }
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
        Math.max(0, ms),
      )
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  },
}
