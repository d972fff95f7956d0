/** Mounts the editor's keyboard shortcuts, field keys and system-clipboard handling (renders nothing). */
import { useServices } from '../../app/services.ts'
import { useCanvasCommands } from './commands.ts'
import { useClipboard } from './useClipboard.ts'
import { useFieldSpace } from './useFieldSpace.ts'
import { useShortcuts } from './useShortcuts.ts'

export function EditorKeys() {
  const services = useServices()
  const commands = useCanvasCommands()
  useClipboard()
  useFieldSpace()
  useShortcuts({ commands, run: services.run?.run, save: services.flows.flush })
  return null
}
