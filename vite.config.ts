/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { precachePlugin } from './vite/precachePlugin.ts'
import { workerOptions } from './vite/workerOptions.ts'

// BASE is '/' locally, '/<repo>/' or './' for GitHub Pages (see scripts/build-pages.mjs).
export default defineConfig({
  base: process.env.BASE ?? '/',
  // precachePlugin: the offline service worker and its list of the build's files (build only).
  plugins: [react(), precachePlugin({ source: 'src/offline/sw.ts' })],
  worker: workerOptions,
  build: { target: 'es2022', chunkSizeWarningLimit: 5000, sourcemap: false },
  // React 19 has useSyncExternalStore: the shim's fallback for older React need not ship.
  resolve: {
    alias: [
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
    testTimeout: 20_000,
  },
})
