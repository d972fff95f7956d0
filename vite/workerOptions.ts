import type { UserConfig } from 'vite'

/**
 * How Vite bundles the app's Web Workers (the sandbox, the tokenizer, Monaco's), shared by the
 * app's and the bench's builds: ES modules, one file per worker. A worker's dynamic imports are
 * inlined: the sandbox worker's QuickJS loader otherwise fetched three more chunks after its
 * script and before QuickJS could load, and the tokenizer worker its table (the whole table is
 * needed at once either way).
 */
export const workerOptions: UserConfig['worker'] = {
  format: 'es',
  rolldownOptions: { output: { codeSplitting: false } },
}
