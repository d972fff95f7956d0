/**
 * Storage (Dexie and the repositories the core uses) as a separate chunk, imported on demand:
 * requested when the app is created, so it downloads while the shell paints, instead of growing
 * the first-paint bundle. Only storage/startupExports.ts: the file formats and the danger zone
 * come with their areas.
 */
export type StorageModule = typeof import('../../storage/startupExports.ts')

let loading: Promise<StorageModule> | null = null

export function loadStorage(): Promise<StorageModule> {
  loading ??= import('../../storage/startupExports.ts')
  return loading
}
