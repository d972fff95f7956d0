/** Sub-flow node config: the flow it runs and the templates that fill that flow's Input keys. */
import { z } from '../../zodMini.ts'
import { isValidFieldKey } from '../../engine/index.ts'
import { issueKey } from '../../issueText.ts'

export const SUBFLOW_CONFIG_VERSION = 1

/** Keys name the called flow's Input keys, so they follow the same rule as Input keys. */
const inputKeySchema = z.string().check(
  z.refine(isValidFieldKey, {
    message:
      'Use a name without spaces, dots, brackets or quotes (and not __proto__, prototype or constructor).',
    params: issueKey('nodes:issues.fieldKeyInvalid'),
  }),
)

export const subflowConfigSchema = z.object({
  configVersion: z._default(z.literal(SUBFLOW_CONFIG_VERSION), SUBFLOW_CONFIG_VERSION),
  /** The called flow's id ('' until one is picked). */
  flow: z._default(z.string(), ''),
  /** `{ <Input key of the called flow>: <template> }`. */
  inputs: z._default(z.record(inputKeySchema, z.string()), {}),
})

export type SubflowConfig = z.infer<typeof subflowConfigSchema>

export function defaultSubflowConfig(): SubflowConfig {
  return { configVersion: SUBFLOW_CONFIG_VERSION, flow: '', inputs: {} }
}
