/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { precachePlugin } from './vite/precachePlugin.ts'

// BASE is '/' locally, '/<repo>/' or './' for GitHub Pages (see scripts/build-pages.mjs).
export default defineConfig({
  base: process.env.BASE ?? '/',
  // precachePlugin: the offline service worker and its list of the build's files (build only).
  plugins: [react(), precachePlugin({ source: 'src/offline/sw.ts' })],
  // One file per worker: the sandbox worker's QuickJS loader would otherwise fetch three more
  // chunks in a row before it could ask for the wasm (a cold start waited on each).
  worker: { format: 'es', rolldownOptions: { output: { codeSplitting: false } } },
  build: { target: 'es2022', chunkSizeWarningLimit: 5000, sourcemap: false },
  server: { host: '127.0.0.1' },
  test: {
    environment: 'node',
    setupFiles: ['./tests/setup.ts'],
    include: ['tests/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
  },
})
