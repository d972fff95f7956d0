/** Code node config: JavaScript run in the sandbox with `inputs`; it returns a JSON value. */
import { z } from '../../zodMini.ts'
import { SANDBOX_TIMEOUT_RANGE_MS } from '../../defaults.ts'
import { rangedNumber } from '../shared.ts'

export const CODE_CONFIG_VERSION = 1

export const DEFAULT_CODE =
  '// `inputs` holds the outputs of the nodes wired into this one, by node id.\nreturn inputs\n'

export const codeConfigSchema = z.object({
  configVersion: z._default(z.literal(CODE_CONFIG_VERSION), CODE_CONFIG_VERSION),
  code: z._default(z.string(), DEFAULT_CODE),
  /** Empty inherits the runtime-protection setting (node > global > default). */
  timeoutMs: z.optional(rangedNumber(SANDBOX_TIMEOUT_RANGE_MS)),
})

export type CodeConfig = z.infer<typeof codeConfigSchema>

export function defaultCodeConfig(): CodeConfig {
  return { configVersion: CODE_CONFIG_VERSION, code: DEFAULT_CODE }
}
