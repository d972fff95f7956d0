/**
 * Messages between the page and the token worker (tokens.worker.ts). The page sends texts in
 * batches (every count asked in one tick goes in one message, so an agent's per-message prompt
 * estimate is one round trip); the worker says once whether its encoding loaded, then answers
 * each batch by id. What the worker sends is validated before it can settle a count.
 */
/** Page -> worker: count each of `texts`. */
export interface CountTokensMessage {
  type: 'count'
  id: number
  texts: string[]
}

/**
 * Worker -> page. Plain types here: the worker imports this file, and a schema library would
 * ride along into its bundle; the page validates with tokenWorkerMessageSchema (tokenWorkerClient.ts).
 */
export type TokenWorkerMessage =
  /** The encoding loaded: counts will follow. */
  | { type: 'ready' }
  /** The encoding could not load: the page counts itself from now on. */
  | { type: 'loadFailed'; message: string }
  | { type: 'counts'; id: number; counts: number[] }
  | { type: 'countFailed'; id: number; message: string }

/** True for a well-formed count request (the worker's check of what it is sent). */
export function isCountTokensMessage(data: unknown): data is CountTokensMessage {
  if (typeof data !== 'object' || data === null) return false
  const message = data as Partial<CountTokensMessage>
  return (
    message.type === 'count' &&
    typeof message.id === 'number' &&
    Array.isArray(message.texts) &&
    message.texts.every((text) => typeof text === 'string')
  )
}
