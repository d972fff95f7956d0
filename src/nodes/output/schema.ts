/** Output node config: named templates whose rendered text is the flow's result. */
import { z } from '../../zodMini.ts'
import { fieldKeySchema } from '../input/schema.ts'

export const OUTPUT_CONFIG_VERSION = 1

export const outputConfigSchema = z.object({
  configVersion: z._default(z.literal(OUTPUT_CONFIG_VERSION), OUTPUT_CONFIG_VERSION),
  values: z._default(z.record(fieldKeySchema, z.string()), {}),
})

export type OutputConfig = z.infer<typeof outputConfigSchema>

export function defaultOutputConfig(): OutputConfig {
  return { configVersion: OUTPUT_CONFIG_VERSION, values: { result: '' } }
}
