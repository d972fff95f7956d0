// Generates the plain-JS copies of the host-neutral sandbox files for the Node worker thread,
// into src/sandbox/generated/ (and nothing else there). Run: `npm run generate`.
//
// Why: the Node worker must start fast (the cold-start budget is 300 ms) and must load under
// plain Node, under tsx (the CLI) and under vitest. Registering a TypeScript loader inside the
// thread costs 200-350 ms, so the thread imports these generated .mjs files instead. The .ts
// files stay the source of truth; tests/sandbox/generated-core.test.ts fails when a copy is
// stale. Lint and Prettier leave the folder out (it is formatted here).
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** The files the worker thread needs at runtime (type-only imports vanish when transpiled). */
export const GENERATED_SOURCES = ['vmPrelude.ts', 'quickjsCore.ts', 'workerLoop.ts']

const sandbox = new URL('../src/sandbox/', import.meta.url)
/** Where the copies live: src/sandbox/generated/. */
export const GENERATED_DIR = new URL('generated/', sandbox)

/** Name of the generated copy of a source file, inside GENERATED_DIR. */
export function generatedName(source) {
  return source.replace(/\.ts$/, '.mjs')
}

/** Transpiles one source file to the exact text its generated copy must have. */
export async function generate(source) {
  const { default: ts } = await import('typescript')
  const prettier = await import('prettier')
  const path = fileURLToPath(new URL(source, sandbox))
  const input = await readFile(path, 'utf8')
  const { outputText } = ts.transpileModule(input, {
    fileName: source,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      verbatimModuleSyntax: true,
      removeComments: false,
    },
  })
  // A runtime import must be another generated copy: the folder holds nothing else.
  const rewritten = outputText.replace(/from '\.\/([\w-]+\.ts)'/g, (_, imported) => {
    if (!GENERATED_SOURCES.includes(imported))
      throw new Error(`${source} imports ./${imported} at runtime; add it to GENERATED_SOURCES`)
    return `from './${generatedName(imported)}'`
  })
  const header =
    `// GENERATED from src/sandbox/${source} by scripts/generate-sandbox.mjs: do not edit.\n` +
    '// Regenerate with `npm run generate`; tests/sandbox/generated-core.test.ts checks it is current.\n'
  const options = (await prettier.resolveConfig(path)) ?? {}
  return prettier.format(header + rewritten, { ...options, parser: 'babel' })
}

async function main() {
  await mkdir(GENERATED_DIR, { recursive: true })
  for (const source of GENERATED_SOURCES) {
    const target = fileURLToPath(new URL(generatedName(source), GENERATED_DIR))
    await writeFile(target, await generate(source))
    console.log(`wrote ${target}`)
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
