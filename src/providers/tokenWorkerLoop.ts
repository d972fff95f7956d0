/**
 * The token worker's message handling, apart from the Worker global so tests can drive it in
 * Node: the encoding starts loading at once (the worker is created by the page's first count,
 * which waits for it), and each batch is answered when it is.
 */
import type { TokenCounter } from './tokens.ts'
import { isCountTokensMessage, type TokenWorkerMessage } from './tokenWorkerProtocol.ts'

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Starts loading the counter; returns the handler of the messages the page sends. */
export function createTokenWorkerLoop(
  post: (message: TokenWorkerMessage) => void,
  load: () => Promise<TokenCounter>,
): (data: unknown) => void {
  const counter = load()
  counter.then(
    () => post({ type: 'ready' }),
    (error: unknown) => post({ type: 'loadFailed', message: reason(error) }),
  )
  return (data) => {
    if (!isCountTokensMessage(data)) return
    const { id, texts } = data
    counter.then(
      (count) => {
        try {
          post({ type: 'counts', id, counts: texts.map(count) })
        } catch (error) {
          post({ type: 'countFailed', id, message: reason(error) })
        }
      },
      // loadFailed was sent; the page serves this batch itself.
      () => undefined,
    )
  }
}
