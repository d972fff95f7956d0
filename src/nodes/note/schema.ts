/** Note config: Markdown text shown sanitised on the canvas. */
import { z } from '../../zodMini.ts'

export const NOTE_CONFIG_VERSION = 1

export const noteConfigSchema = z.object({
  configVersion: z._default(z.literal(NOTE_CONFIG_VERSION), NOTE_CONFIG_VERSION),
  text: z._default(z.string(), ''),
})

export type NoteConfig = z.infer<typeof noteConfigSchema>

export function defaultNoteConfig(): NoteConfig {
  return { configVersion: NOTE_CONFIG_VERSION, text: '' }
}
