/** Merge node config: how the finished inputs of joined branches become one output. */
import { z } from '../../zodMini.ts'

export const MERGE_CONFIG_VERSION = 1

export const mergeConfigSchema = z.object({
  configVersion: z._default(z.literal(MERGE_CONFIG_VERSION), MERGE_CONFIG_VERSION),
  mode: z._default(z.enum(['first', 'all']), 'first'),
})

export type MergeConfig = z.infer<typeof mergeConfigSchema>

export function defaultMergeConfig(): MergeConfig {
  return { configVersion: MERGE_CONFIG_VERSION, mode: 'first' }
}
