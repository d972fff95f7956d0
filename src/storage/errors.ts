/**
 * Maps whatever IndexedDB / Dexie throws to a FlowError a person can act on. Dexie wraps the
 * browser's DOMException in its own error (`inner`), so every layer of the chain is inspected.
 */
import { FlowError, type FlowErrorCode } from '../engine/index.ts'

const BLOCKED_NAMES = new Set([
  'VersionError',
  'BlockedError',
  'DatabaseClosedError',
  'OpenFailedError',
  'MissingAPIError',
  'InvalidStateError',
  'UpgradeError',
  'SecurityError',
])

const MESSAGES: Record<'STORAGE_QUOTA' | 'STORAGE_BLOCKED' | 'STORAGE_FAILED', string> = {
  STORAGE_QUOTA:
    "The browser's storage for Wardflow is full, so this change was not saved. Everything saved before is still there. Free space by clearing run history and exports (Settings > Danger zone) or deleting flows you no longer need.",
  STORAGE_BLOCKED:
    'Wardflow cannot open its database. Another tab may hold an older version open (close other Wardflow tabs and reload), or the browser blocks storage here (private mode or site settings).',
  STORAGE_FAILED: 'Saving to the browser database failed; nothing saved before was changed.',
}

function errorNames(error: unknown): string[] {
  const names: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const record = current as { name?: unknown; inner?: unknown; cause?: unknown }
    if (typeof record.name === 'string') names.push(record.name)
    current = record.inner ?? record.cause
  }
  return names
}

/** Which storage code an error from Dexie/IndexedDB belongs to. */
export function storageErrorCode(error: unknown): 'STORAGE_QUOTA' | 'STORAGE_BLOCKED' | 'STORAGE_FAILED' {
  const names = errorNames(error)
  if (names.some((n) => n === 'QuotaExceededError')) return 'STORAGE_QUOTA'
  if (names.some((n) => BLOCKED_NAMES.has(n))) return 'STORAGE_BLOCKED'
  return 'STORAGE_FAILED'
}

/**
 * Wraps anything thrown by storage into a FlowError. FlowErrors raised on purpose (validation,
 * passphrases) pass through unchanged; `action` names what was being done, for the message.
 */
export function toStorageError(error: unknown, action: string): FlowError {
  if (error instanceof FlowError) return error
  const code: FlowErrorCode = storageErrorCode(error)
  const detail = error instanceof Error && error.message !== '' ? ` (${error.message})` : ''
  const message = code === 'STORAGE_FAILED' ? `${MESSAGES[code]} While: ${action}${detail}.` : MESSAGES[code]
  return new FlowError(code, message, { cause: error, details: { action } })
}

/** Runs a storage operation, turning failures into FlowErrors. */
export async function guard<T>(action: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    throw toStorageError(error, action)
  }
}
