/**
 * Benches that need Vite's transforms (the page's own modules: `import.meta.glob` catalogues),
 * run through Vitest: `npx vitest run -c bench/vitest.config.ts bench/<name>.vbench.ts`. One
 * forked process, one file at a time, so process.cpuUsage() measures the bench alone.
 */
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    environment: 'node',
    include: ['bench/**/*.vbench.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 600_000,
  },
})
