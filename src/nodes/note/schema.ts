/** Note config: Markdown text shown sanitised on the canvas. */
import { z } from 'zod'

export const NOTE_CONFIG_VERSION = 1

export const noteConfigSchema = z.object({
  configVersion: z.literal(NOTE_CONFIG_VERSION).default(NOTE_CONFIG_VERSION),
  text: z.string().default(''),
})

export type NoteConfig = z.infer<typeof noteConfigSchema>

export function defaultNoteConfig(): NoteConfig {
  return { configVersion: NOTE_CONFIG_VERSION, text: '' }
}
