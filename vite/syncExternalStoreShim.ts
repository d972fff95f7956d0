/**
 * Stands in for `use-sync-external-store/shim`, which React Flow's store (zustand 4's
 * with-selector) requires: the shim carries a fallback for React before 18 and, on React 19,
 * hands out React's own `useSyncExternalStore`. This hands it out directly, so the page's start
 * does not carry the fallback (vite.config.ts aliases the shim here).
 */
export { useSyncExternalStore } from 'react'
