// Generates the plain-JS copies of the host-neutral sandbox files for the Node worker thread.
//
// Why: the Node worker must start fast (the cold-start budget is 300 ms) and must load under
// plain Node, under tsx (the CLI) and under vitest. Registering a TypeScript loader inside the
// thread costs 200-350 ms, so the thread imports these generated .mjs files instead. The .ts
// files stay the source of truth; tests/sandbox/generated-core.test.ts fails when a copy is stale.
//
// Run: node src/sandbox/gen-core.mjs
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** The files the worker thread needs at runtime (type-only imports vanish when transpiled). */
export const GENERATED_SOURCES = ['vmPrelude.ts', 'quickjsCore.ts', 'workerLoop.ts']

const here = new URL('./', import.meta.url)

/** Name of the generated copy of a source file. */
export function generatedName(source) {
  return source.replace(/\.ts$/, '.gen.mjs')
}

/** Transpiles one source file to the exact text its generated copy must have. */
export async function generate(source) {
  const { default: ts } = await import('typescript')
  const prettier = await import('prettier')
  const path = fileURLToPath(new URL(source, here))
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
  const rewritten = outputText.replace(/from '\.\/([\w-]+)\.ts'/g, "from './$1.gen.mjs'")
  const header =
    `// GENERATED from ${source} by gen-core.mjs: do not edit. Regenerate with\n` +
    '// `node src/sandbox/gen-core.mjs`; tests/sandbox/generated-core.test.ts checks it is current.\n'
  const options = (await prettier.resolveConfig(path)) ?? {}
  return prettier.format(header + rewritten, { ...options, parser: 'babel' })
}

async function main() {
  for (const source of GENERATED_SOURCES) {
    const target = fileURLToPath(new URL(generatedName(source), here))
    await writeFile(target, await generate(source))
    console.log(`wrote ${target}`)
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
