/**
 * A node's error and skip lines in the UI's language. The engine writes them in English (the CLI
 * prints those); in another language the line leads with the catalogue's explanation of the
 * error's code and keeps the system's own detail (a server's words, a stack message) after it.
 */
import type { LineLabeller } from '../../store/runStore.ts'
import type { Translate } from './runRefusal.ts'

export function runLineLabeller(t: Translate, labelOf: (nodeId: string) => string | undefined): LineLabeller {
  return {
    error(code, message) {
      const text = t(`errors:${code}`, { defaultValue: message })
      if (code === 'CANCELLED' || text === message) return text
      return t('run:lines.error', { text, message })
    },
    skipped(event) {
      if (event.failedNodeId !== undefined)
        return t('run:lines.skippedAfter', {
          name: labelOf(event.failedNodeId) || event.failedNodeId,
          defaultValue: event.message ?? event.reason,
        })
      const message = event.message ?? event.reason
      if (event.stopped) return t('run:lines.stopped', { defaultValue: message })
      if (event.reason === 'notTaken') return t('run:lines.notTaken', { defaultValue: message })
      return message
    },
  }
}
