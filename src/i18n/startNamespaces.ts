/**
 * The English namespaces the first paint needs (src/i18n/index.ts fetches them as JSON before the
 * first render; vite/preloadStartCatalogues.ts preloads them from index.html). Its own module so
 * the Vite config can read it without loading i18next.
 */
export const START_NAMESPACES: readonly string[] = ['ui', 'nodes', 'run']
