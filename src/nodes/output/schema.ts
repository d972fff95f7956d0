/** Output node config: named templates whose rendered text is the flow's result. */
import { z } from 'zod'
import { fieldKeySchema } from '../input/schema.ts'

export const OUTPUT_CONFIG_VERSION = 1

export const outputConfigSchema = z.object({
  configVersion: z.literal(OUTPUT_CONFIG_VERSION).default(OUTPUT_CONFIG_VERSION),
  values: z.record(fieldKeySchema, z.string()).default({}),
})

export type OutputConfig = z.infer<typeof outputConfigSchema>

export function defaultOutputConfig(): OutputConfig {
  return { configVersion: OUTPUT_CONFIG_VERSION, values: { result: '' } }
}
