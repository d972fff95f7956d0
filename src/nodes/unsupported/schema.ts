/**
 * Placeholder config for an imported node type Wardflow cannot run (PatchCat's `condition`,
 * `loop`, ...). It keeps the original JSON so re-export loses nothing.
 */
import { z } from '../../zodMini.ts'

export const UNSUPPORTED_CONFIG_VERSION = 1

export const unsupportedConfigSchema = z.object({
  configVersion: z._default(z.literal(UNSUPPORTED_CONFIG_VERSION), UNSUPPORTED_CONFIG_VERSION),
  originalType: z.string(),
  /** The node exactly as the source file had it. */
  original: z.unknown(),
})

export type UnsupportedConfig = z.infer<typeof unsupportedConfigSchema>

export function defaultUnsupportedConfig(): UnsupportedConfig {
  return { configVersion: UNSUPPORTED_CONFIG_VERSION, originalType: 'unknown', original: null }
}
