/** Note: a comment on the canvas. Data only: never executed, no handles, no templates. */
import { defineNodeType, FlowError } from '../../engine/index.ts'
import { NOTE_DEFAULT_HEIGHT_PX, NOTE_DEFAULT_WIDTH_PX } from '../../defaults.ts'
import { firstLine } from '../shared.ts'
import { zodParser, type NodeDefinition } from '../types.ts'
import { defaultNoteConfig, NOTE_CONFIG_VERSION, noteConfigSchema, type NoteConfig } from './schema.ts'

export const noteNode: NodeDefinition<NoteConfig> = {
  type: 'note',
  icon: '✎',
  color: '#d69e2e',
  labelKey: 'nodes:note.label',
  descriptionKey: 'nodes:note.description',
  configVersion: NOTE_CONFIG_VERSION,
  schema: noteConfigSchema,
  defaultConfig: defaultNoteConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.NOTE_FIELDS),
  summary: (config) => firstLine(config.text),
  palette: { group: 'notes', order: 10 },
  role: 'annotation',
  defaultSize: { width: NOTE_DEFAULT_WIDTH_PX, height: NOTE_DEFAULT_HEIGHT_PX },
  engine: defineNodeType<NoteConfig>({
    type: 'note',
    ports: { inputs: [], outputs: [] },
    executable: false,
    parseConfig: zodParser(noteConfigSchema),
    outputs: () => [],
    templates: () => [],
    execute: async ({ node }) => {
      throw new FlowError('INTERNAL', 'A note is never executed.', { nodeId: node.id })
    },
  }),
}
