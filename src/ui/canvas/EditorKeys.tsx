/** Mounts the editor's keyboard shortcuts and system-clipboard handling (renders nothing). */
import { useServices } from '../services.ts'
import { useCanvasCommands } from './commands.ts'
import { useClipboard } from './useClipboard.ts'
import { useShortcuts } from './useShortcuts.ts'

export function EditorKeys() {
  const services = useServices()
  const commands = useCanvasCommands()
  useClipboard()
  useShortcuts({ commands, run: services.run?.run, save: services.flows.flush })
  return null
}
