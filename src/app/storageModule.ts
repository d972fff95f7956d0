/**
 * Storage (Dexie and the repositories) as a separate chunk: requested when the app is created,
 * so it downloads while the shell paints, instead of growing the first-paint bundle.
 */
export type StorageModule = typeof import('../storage/index.ts')

let loading: Promise<StorageModule> | null = null

export function loadStorage(): Promise<StorageModule> {
  loading ??= import('../storage/index.ts')
  return loading
}
