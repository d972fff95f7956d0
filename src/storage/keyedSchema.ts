/**
 * A zod record that keeps every own key. `z.record` drops a `__proto__` key (it assigns into a
 * plain object), and the keys of run records and stored events are node ids, which may be any
 * name: a run of a node called `__proto__` would lose its output and inputs on the way back from
 * IndexedDB. The parsed record has no prototype (engine/keyed.ts).
 */
import { z } from 'zod'
import { keyedRecord } from '../engine/index.ts'
import { isPlainObject } from './restore/schema.ts'

export function keyedRecordSchema<T extends z.ZodType>(value: T) {
  return z.custom<Record<string, unknown>>(isPlainObject).transform((raw, ctx) => {
    const out = keyedRecord<z.output<T>>()
    for (const key of Object.keys(raw)) {
      const parsed = value.safeParse(raw[key])
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: `Invalid entry ${JSON.stringify(key)}.`, path: [key] })
        return z.NEVER
      }
      out[key] = parsed.data
    }
    return out
  })
}
