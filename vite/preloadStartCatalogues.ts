/**
 * The first paint waits for the start catalogues (src/i18n/index.ts, START_NAMESPACES), which the
 * build emits as JSON files. This plugin names them in index.html as `<link rel="preload"
 * as="fetch">`, so the browser downloads them alongside the start script instead of after it has
 * run (one round trip saved). Build only: the dev server imports them as modules.
 */
import type { Plugin, ResolvedConfig } from 'vite'

const START_CATALOGUE = /(^|\/)src\/i18n\/en\/[^/]+\.json$/

export function preloadStartCatalogues(namespaces: readonly string[]): Plugin {
  const wanted = new Set(namespaces.map((ns) => `${ns}.json`))
  let base = '/'
  return {
    name: 'wardflow:preload-start-catalogues',
    apply: 'build',
    configResolved(config: ResolvedConfig) {
      // A relative base ('./', the Pages build) names files from index.html, at the outDir root.
      base = config.base === '' || config.base.startsWith('.') ? './' : config.base
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const files = Object.values(ctx.bundle ?? {}).flatMap((output) => {
          if (output.type !== 'asset') return []
          const names = output.originalFileNames ?? []
          const isStart = names.some(
            (name) => START_CATALOGUE.test(name) && wanted.has(name.split('/').pop() ?? ''),
          )
          return isStart ? [output.fileName] : []
        })
        return files.map((file) => ({
          tag: 'link',
          // fetch() uses CORS mode with same-origin credentials: crossorigin="anonymous" matches it.
          attrs: { rel: 'preload', as: 'fetch', crossorigin: 'anonymous', href: `${base}${file}` },
          injectTo: 'head',
        }))
      },
    },
  }
}
