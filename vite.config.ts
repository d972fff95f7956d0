/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { precachePlugin } from './vite/precachePlugin.ts'
import { workerOptions } from './vite/workerOptions.ts'
import { preloadStartCatalogues } from './vite/preloadStartCatalogues.ts'
import { START_NAMESPACES } from './src/i18n/startNamespaces.ts'

// BASE is '/' locally, '/<repo>/' or './' for GitHub Pages (see scripts/build-pages.mjs).
export default defineConfig({
  base: process.env.BASE ?? '/',
  // precachePlugin: the offline service worker and its list of the build's files (build only).
  // preloadStartCatalogues: index.html preloads the start's English catalogues (JSON, not script).
  plugins: [
    react(),
    precachePlugin({ source: 'src/offline/sw.ts' }),
    preloadStartCatalogues(START_NAMESPACES),
  ],
  worker: workerOptions,
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 5000,
    sourcemap: false,
    // What the page loads at start as one chunk (rolldown's $initial: reachable from the entry by
    // static imports), not the entry plus a chunk per module it shares with a lazy area: 21 files
    // gzip 4.7 KB worse. The service worker's modules stay out: sw.js must be self-contained.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'start', tags: ['$initial'], test: (id) => !id.includes('/src/offline/') }],
        },
      },
    },
  },
  // React 19 has useSyncExternalStore: the shim's fallback for older React need not ship. React
  // Flow tweens no colours: d3's colour parsing need not ship either (vite/d3ColorStub.ts).
  resolve: {
    alias: [
      {
        find: /^d3-color$/,
        replacement: fileURLToPath(new URL('./vite/d3ColorStub.ts', import.meta.url)),
      },
      {
        find: /^use-sync-external-store\/shim$/,
        replacement: fileURLToPath(new URL('./vite/syncExternalStoreShim.ts', import.meta.url)),
      },
    ],
  },
  server: { host: '127.0.0.1' },
  test: {
    environment: 'node',
    setupFiles: ['./tests/setup.ts'],
    include: ['tests/**/*.test.{ts,tsx}'],
    // Real servers, run by `npm run test:integration` (tests/integration/vitest.config.ts).
    exclude: ['tests/integration/**', 'node_modules/**'],
    testTimeout: 20_000,
    // Vitest's default is one worker fewer than the CPUs, a single worker on CI's 2 cores: the
    // suite took 590 s there. Many files wait on child processes and servers, so two share well.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    // As Playwright's CI config: a test that fails once on a loaded CI host is run again and
    // reported; one that fails twice fails the build.
    retry: process.env.CI ? 1 : 0,
    // Through Vite's resolver, so d3 gets the d3-color stand-in as in the build (tests/build).
    server: { deps: { inline: [/\/d3-(interpolate|transition)\//] } },
  },
})
