/**
 * The Node worker thread runs generated JS copies of the host-neutral sandbox files (see
 * src/sandbox/gen-core.mjs for why). This keeps them in step with their TypeScript sources.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { generate, generatedName, GENERATED_SOURCES } from '../../src/sandbox/gen-core.mjs'

// Loading the TypeScript compiler takes seconds on a busy machine.
const COMPILER_TIMEOUT_MS = 60_000

describe('generated worker-thread copies', () => {
  it.each(GENERATED_SOURCES)(
    '%s matches its generated .gen.mjs copy (else run node src/sandbox/gen-core.mjs)',
    { timeout: COMPILER_TIMEOUT_MS },
    async (source) => {
      const committed = await readFile(
        new URL(`../../src/sandbox/${generatedName(source)}`, import.meta.url),
        'utf8',
      )
      expect(committed).toBe(await generate(source))
    },
  )
})
