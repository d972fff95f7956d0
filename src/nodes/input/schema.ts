/** Input node config: named text values a run can override (`--input key=value`). */
import { z } from '../../zodMini.ts'
import { isValidFieldKey } from '../../engine/index.ts'
import { issueKey } from '../../issueText.ts'

export const INPUT_CONFIG_VERSION = 1

/** Keys become output field names, so they must be reachable by `{{id.key}}`. */
export const fieldKeySchema = z.string().check(
  z.refine(isValidFieldKey, {
    message:
      'Use a name without spaces, dots, brackets or quotes (and not __proto__, prototype or constructor).',
    params: issueKey('nodes:issues.fieldKeyInvalid'),
  }),
)

export const inputConfigSchema = z.object({
  configVersion: z._default(z.literal(INPUT_CONFIG_VERSION), INPUT_CONFIG_VERSION),
  values: z._default(z.record(fieldKeySchema, z.string()), {}),
})

export type InputConfig = z.infer<typeof inputConfigSchema>

export function defaultInputConfig(): InputConfig {
  return { configVersion: INPUT_CONFIG_VERSION, values: { question: '' } }
}
