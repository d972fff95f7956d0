/**
 * Storage's public surface: the app/ layer calls these (ui/ never does). Every function that
 * touches IndexedDB throws FlowError STORAGE_QUOTA / STORAGE_BLOCKED / STORAGE_FAILED with a
 * message a person understands; imports never throw and never write.
 */
export { WardflowDb, openWardflowDb, DB_VERSION, type WardflowDbOptions } from './db.ts'
export type {
  FlowRow,
  RunRecord,
  RunStatus,
  NodeTiming,
  ExportRecord,
  ExportKind,
  CacheRow,
  SecretsRow,
} from './rows.ts'
export { storageErrorCode, toStorageError } from './errors.ts'

export {
  listFlows,
  searchFlows,
  loadFlow,
  saveFlow,
  renameFlow,
  duplicateFlow,
  removeFlow,
  removeAllFlows,
  type FlowSummary,
  type LoadedFlow,
} from './repositories/flows.ts'
export {
  saveRun,
  listRuns,
  getRun,
  clearRuns,
  compactEvents,
  scrubSecrets,
  type SaveRunOptions,
} from './repositories/runs.ts'
export {
  loadSettings,
  saveSettings,
  type LoadedSettings,
  type SaveSettingsOptions,
  type SaveSettingsReport,
} from './repositories/settings.ts'
export {
  recordExport,
  listExports,
  getExport,
  removeExport,
  clearExports,
  type ExportSummary,
  type NewExport,
} from './repositories/exports.ts'
export { putCache, getCache, clearCaches } from './repositories/caches.ts'

export {
  CURRENT_DOC_SCHEMA_VERSION,
  DOC_MIGRATIONS,
  restoreDocument,
  restoreFlowRow,
  restoreConfig,
  type ImportProblem,
  type NodeLookup,
  type RestoreResult,
} from './restore/index.ts'

export {
  exportWorkflow,
  exportWorkflowText,
  parseWorkflowText,
  asNewFlow,
  workflowFileName,
  WORKFLOW_FORMAT,
  WORKFLOW_FILE_VERSION,
  type ParseWorkflowResult,
  type WorkflowExport,
} from './workflowFile.ts'
export { importPatchCat, looksLikePatchCat } from './patchcat.ts'

export {
  exportSettingsSanitized,
  exportSettingsFull,
  importSettingsText,
  settingsFileName,
  SettingsImportError,
  APP_VERSION,
  SETTINGS_FILE_FORMAT,
  type ImportedSettings,
  type SettingsExport,
  type SettingsExportOptions,
} from './settingsFile.ts'
export {
  lockSecrets,
  unlockSecrets,
  removeSecretsLock,
  isLocked,
  writeSecrets,
  type UnlockedSecrets,
} from './keyLock.ts'
export {
  splitSecrets,
  mergeSecrets,
  secretValues,
  isSecretHeaderName,
  type Secrets,
  type ProviderSecret,
} from './secrets.ts'
export { redactSecrets, redactString } from './redact.ts'

export {
  clearCache,
  deleteAllFlows,
  resetSettings,
  describeClearCache,
  describeDeleteAllFlows,
  describeResetSettings,
  type DangerPlan,
  type DangerCounts,
} from './danger.ts'
