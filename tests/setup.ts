import 'fake-indexeddb/auto'
import '@testing-library/jest-dom/vitest'
import fc from 'fast-check'
import { afterEach } from 'vitest'
import { loadSchemaLibrary } from '../src/platform/schemaValidator.ts'
import { installRunReducer } from '../src/store/runStore.ts'
import * as runReducer from '../src/store/runStoreReducer.ts'

// Property tests draw from one fixed seed, so CI (and a fresh clone) sees the same cases on every
// run: a failure is a change's fault, not the luck of the draw. To explore new cases, run
// `FC_SEED=random npm run test:unit` (or any number); a failure prints the seed to replay.
const seed = process.env.FC_SEED ?? '20261129'
if (seed !== 'random') fc.configureGlobal({ seed: Number(seed) })

// The schema validator's library loads on first use; tests that run on a manual clock drain only
// microtasks, so it is loaded before any of them starts.
await loadSchemaLibrary()

// In the app the run area installs the run store's reducer when it loads (store/runStore.ts);
// store and view tests drive the store directly, so it is installed for all of them.
installRunReducer(runReducer)

// React Testing Library is only loaded by DOM tests; cleaning up lazily keeps node-env tests fast.
afterEach(async () => {
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react')
    cleanup()
  }
})

// jsdom has no ResizeObserver; React Flow needs one to mount.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
}
