/**
 * Whether the English catalogues of `namespaces` that are not bundled at start are here, loading
 * them once `wanted`. A part that shows their texts renders them only when this says true, so it
 * never shows a key or changes its words once shown. Offline (the download failed) it says true
 * too: every text then falls back to the message the code carries. Other languages load whole
 * with the language (i18n/index.ts). `namespaces` must be a module-level constant (an effect
 * dependency).
 */
import { useEffect, useState } from 'react'
import { i18next, loadNamespaces } from '../i18n/index.ts'

const present = (namespaces: readonly string[]): boolean =>
  namespaces.every((ns) => i18next.hasResourceBundle('en', ns))

export function useCatalogues(namespaces: readonly string[], wanted: boolean): boolean {
  const [ready, setReady] = useState(() => present(namespaces))
  useEffect(() => {
    if (!wanted || ready) return undefined
    let live = true
    const done = (): void => {
      if (live) setReady(true)
    }
    loadNamespaces(namespaces).then(done, done)
    return () => {
      live = false
    }
  }, [wanted, ready, namespaces])
  return ready
}
