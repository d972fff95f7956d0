/** Template node config: one text with `{{refs}}`, rendered into `text`. */
import { z } from '../../zodMini.ts'

export const TEMPLATE_CONFIG_VERSION = 1

export const templateConfigSchema = z.object({
  configVersion: z._default(z.literal(TEMPLATE_CONFIG_VERSION), TEMPLATE_CONFIG_VERSION),
  template: z._default(z.string(), ''),
})

export type TemplateConfig = z.infer<typeof templateConfigSchema>

export function defaultTemplateConfig(): TemplateConfig {
  return { configVersion: TEMPLATE_CONFIG_VERSION, template: '' }
}
