/**
 * The integration tests against real servers (`npm run test:integration`): each file runs on its
 * own, one after another, since every test starts a redis-server on one of a few ports and its
 * own worker processes on a 2-core machine.
 */
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    environment: 'node',
    include: ['tests/integration/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
})
