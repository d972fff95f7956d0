// Builds the bench's bare React Flow page (bare.html) with the app's React and React Flow, in
// production mode, into OUT_DIR (a temp folder: nothing here is committed).
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    target: 'es2022',
    outDir: process.env.OUT_DIR ?? '/tmp/wardflow-bench/bare',
    emptyOutDir: true,
    rolldownOptions: { input: { bare: `${root}bare.html` } },
  },
})
