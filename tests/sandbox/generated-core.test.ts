/**
 * The Node worker thread runs generated JS copies of the host-neutral sandbox files (see
 * scripts/generate-sandbox.mjs for why). This keeps them in step with their TypeScript sources.
 */
import { readdir, readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { GENERATED_DIR, generate, generatedName, GENERATED_SOURCES } from '../../scripts/generate-sandbox.mjs'

// Loading the TypeScript compiler takes seconds on a busy machine.
const COMPILER_TIMEOUT_MS = 60_000

describe('generated worker-thread copies (src/sandbox/generated/)', () => {
  it.each(GENERATED_SOURCES)(
    '%s matches its generated copy (else run npm run generate)',
    { timeout: COMPILER_TIMEOUT_MS },
    async (source) => {
      const committed = await readFile(new URL(generatedName(source), GENERATED_DIR), 'utf8')
      expect(committed).toBe(await generate(source))
    },
  )

  it('the folder holds the generated copies and nothing else', async () => {
    const files = (await readdir(GENERATED_DIR)).sort()
    expect(files).toEqual(GENERATED_SOURCES.map(generatedName).sort())
  })
})
