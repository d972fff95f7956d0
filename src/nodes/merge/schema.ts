/** Merge node config: how the finished inputs of joined branches become one output. */
import { z } from '../../zodMini.ts'
import { isValidFieldKey } from '../../engine/index.ts'

/** A key a template can name as `{{merge.<key>}}` (no dots, braces or spaces). */
const fieldKey = z
  .string()
  .check(z.refine(isValidFieldKey, { message: 'Use a field name without spaces, dots or brackets.' }))

export const MERGE_CONFIG_VERSION = 1

export const mergeConfigSchema = z.object({
  configVersion: z._default(z.literal(MERGE_CONFIG_VERSION), MERGE_CONFIG_VERSION),
  mode: z._default(z.enum(['first', 'all']), 'first'),
  /**
   * An extra output field holding the merged value under a name downstream nodes already use
   * (PatchCat's aggregator `outputKey`, e.g. `selected_prompt`).
   */
  outputKey: z.optional(fieldKey),
  /**
   * With `outputKey`: the field of each input that `outputKey` holds (`first`: the chosen
   * input's field; `all`: that field of each input by node id). Without it, the whole output.
   */
  outputField: z.optional(fieldKey),
})

export type MergeConfig = z.infer<typeof mergeConfigSchema>

export function defaultMergeConfig(): MergeConfig {
  return { configVersion: MERGE_CONFIG_VERSION, mode: 'first' }
}
