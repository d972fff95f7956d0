/** Mounts the editor's keyboard shortcuts, field keys and system-clipboard handling (renders nothing). */
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { useServices } from '../services.ts'
import { useCanvasCommands } from './commands.ts'
import { useClipboard } from './useClipboard.ts'
import { useFieldSpace } from './useFieldSpace.ts'
import { useShortcuts } from './useShortcuts.ts'

export function EditorKeys() {
  const services = useServices()
  const commands = useCanvasCommands()
  const { t } = useTranslation()
  const importer = services.import
  // Pasted workflow text goes the way of a dropped file (size check, validation, new flow).
  const importWorkflow = useCallback(
    (text: string) => {
      if (!importer) return
      void importer.importFile(new File([text], t('canvas.pastedFile'), { type: 'application/json' }))
    },
    [importer, t],
  )
  useClipboard({ importWorkflow })
  useFieldSpace()
  useShortcuts({ commands, run: services.run?.run, save: services.flows.flush })
  return null
}
