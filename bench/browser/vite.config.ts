// Builds the bench's own pages in production mode into OUT_DIR (a temp folder: nothing here is
// committed): the bare React Flow page (bare.html) with the app's React and React Flow, and the
// sandbox page (sandbox.html) with the app's real worker runner.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { workerOptions } from '../../vite/workerOptions.ts'

const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  worker: workerOptions,
  logLevel: 'warn',
  build: {
    target: 'es2022',
    outDir: process.env.OUT_DIR ?? '/tmp/wardflow-bench/bare',
    emptyOutDir: true,
    rolldownOptions: { input: { bare: `${root}bare.html`, sandbox: `${root}sandbox.html` } },
  },
})
