/**
 * Tells the other tabs of this site that the stored settings changed, so they read them again
 * instead of writing their stale copy back over an import (or any change) made here. Built on
 * BroadcastChannel (same origin only, never the sender itself); where it is missing, tabs simply
 * do not hear of each other and header changes still patch only their own fields.
 */
export interface SettingsChannel {
  /** Says "settings changed" to the other tabs. */
  announce(): void
  /** Calls `onChange` whenever another tab announced; returns the unsubscribe function. */
  listen(onChange: () => void): () => void
  close(): void
}

const CHANNEL_NAME = 'wardflow-settings'

/** The browser's channel, or null where BroadcastChannel does not exist. */
export function openSettingsChannel(): SettingsChannel | null {
  if (typeof BroadcastChannel !== 'function') return null
  const channel = new BroadcastChannel(CHANNEL_NAME)
  const listeners = new Set<() => void>()
  channel.onmessage = () => {
    for (const listener of listeners) listener()
  }
  return {
    announce: () => channel.postMessage({ type: 'settings-changed' }),
    listen(onChange) {
      listeners.add(onChange)
      return () => void listeners.delete(onChange)
    },
    close: () => channel.close(),
  }
}
