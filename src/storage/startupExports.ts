/**
 * The part of storage the app core uses from the first paint on: the database, flows, settings
 * and the key lock. A surface of its own so that chunk stays small: the file formats (workflow,
 * PatchCat, settings files), exports, caches and the danger zone load with the areas that use
 * them, through `index.ts`.
 */
export { WardflowDb, openWardflowDb } from './db.ts'
export { toStorageError } from './errors.ts'
export {
  listFlows,
  loadFlow,
  saveFlow,
  renameFlow,
  duplicateFlow,
  removeFlow,
  restoreFlowDocument,
} from './repositories/flows.ts'
export { loadSettings, saveSettings } from './repositories/settings.ts'
export { isLocked, lockSecrets, unlockSecrets, removeSecretsLock } from './keyLock.ts'
