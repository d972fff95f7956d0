/**
 * Messages between the page and the token worker (tokens.worker.ts). The page sends texts in
 * batches (every count asked in one tick goes in one message, so an agent's per-message prompt
 * estimate is one round trip); the worker says once whether its encoding loaded, then answers
 * each batch by id. What the worker sends is validated before it can settle a count.
 */
import { z } from 'zod'

/** Page -> worker: count each of `texts`. */
export interface CountTokensMessage {
  type: 'count'
  id: number
  texts: string[]
}

export const tokenWorkerMessageSchema = z.discriminatedUnion('type', [
  /** The encoding loaded: counts will follow. */
  z.object({ type: z.literal('ready') }),
  /** The encoding could not load: the page counts itself from now on. */
  z.object({ type: z.literal('loadFailed'), message: z.string() }),
  z.object({ type: z.literal('counts'), id: z.number(), counts: z.array(z.number().int().nonnegative()) }),
  z.object({ type: z.literal('countFailed'), id: z.number(), message: z.string() }),
])

/** Worker -> page. */
export type TokenWorkerMessage = z.infer<typeof tokenWorkerMessageSchema>

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
