/**
 * Waiting on a promise that cannot itself be cancelled (a fetch's body, a worker's answer) while
 * honouring a run's AbortSignal: providers and the sandbox pool both need it.
 */

/**
 * Resolves like `promise`, or rejects with `reason()` as soon as `signal` aborts (at once when it
 * already has). The abort listener is removed either way, and a promise left behind by an abort
 * has its later rejection absorbed, so it never surfaces as an unhandled rejection.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, reason: () => unknown): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined)
    return Promise.reject(reason())
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => undefined)
      reject(reason())
    }
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
