/** Loop node config (../shared/design/flow-control.md, `loop`). */
import { z } from '../../zodMini.ts'
import {
  LOOP_CONCURRENCY,
  LOOP_CONCURRENCY_RANGE,
  LOOP_MAX_ITERATIONS,
  LOOP_MAX_ITERATIONS_RANGE,
  type NumberRange,
} from '../../defaults.ts'
import { ruleSchema } from '../condition/schema.ts'

export const LOOP_CONFIG_VERSION = 1

function whole(range: NumberRange, fallback: number) {
  const message = `Must be a whole number from ${range.min} to ${range.max}.`
  return z._default(
    z.number({ error: message }).check(z.int(message), z.gte(range.min, message), z.lte(range.max, message)),
    fallback,
  )
}

/** `until` of a `while` loop: a condition case without an id (its `match` and `rules`). */
export const untilSchema = z.object({
  match: z._default(z.enum(['all', 'any']), 'all'),
  rules: z._default(z.array(ruleSchema), []),
})

export const loopConfigSchema = z.object({
  configVersion: z._default(z.literal(LOOP_CONFIG_VERSION), LOOP_CONFIG_VERSION),
  mode: z._default(z.enum(['forEach', 'while']), 'forEach'),
  /** forEach: a template resolving to a JSON array (or text that parses as one). */
  items: z._default(z.string(), ''),
  concurrency: whole(LOOP_CONCURRENCY_RANGE, LOOP_CONCURRENCY),
  until: z._default(untilSchema, { match: 'all', rules: [] }),
  maxIterations: whole(LOOP_MAX_ITERATIONS_RANGE, LOOP_MAX_ITERATIONS),
  /** The body node whose whole output is an iteration's result; empty: the body's only end. */
  resultNode: z._default(z.string(), ''),
  onItemError: z._default(z.enum(['fail', 'continue']), 'fail'),
})

export type LoopConfig = z.infer<typeof loopConfigSchema>

export function defaultLoopConfig(): LoopConfig {
  return {
    configVersion: LOOP_CONFIG_VERSION,
    mode: 'forEach',
    items: '',
    concurrency: LOOP_CONCURRENCY,
    until: { match: 'all', rules: [] },
    maxIterations: LOOP_MAX_ITERATIONS,
    resultNode: '',
    onItemError: 'fail',
  }
}
