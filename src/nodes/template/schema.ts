/** Template node config: one text with `{{refs}}`, rendered into `text`. */
import { z } from 'zod'

export const TEMPLATE_CONFIG_VERSION = 1

export const templateConfigSchema = z.object({
  configVersion: z.literal(TEMPLATE_CONFIG_VERSION).default(TEMPLATE_CONFIG_VERSION),
  template: z.string().default(''),
})

export type TemplateConfig = z.infer<typeof templateConfigSchema>

export function defaultTemplateConfig(): TemplateConfig {
  return { configVersion: TEMPLATE_CONFIG_VERSION, template: '' }
}
