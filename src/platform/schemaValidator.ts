/**
 * The engine's SchemaValidator, backed by @cfworker/json-schema in the browser and in the CLI.
 *
 * Why this library: it interprets schemas instead of generating code, so it needs neither
 * `eval` nor `new Function` (ajv does): it keeps working under a strict Content-Security-Policy
 * on a static host, in workers and offline, and it is small. It implements drafts 4, 7,
 * 2019-09 and 2020-12, and its output names the place and rule of each problem.
 * It is slow on big values, though (8 ms for a 100 KB reply), so where code generation is
 * allowed ajv answers "fits or not" first (fastCheck.ts); only a value that does not fit, the
 * rare case, is walked by this library for the messages. Both load on the first check.
 */
import { JSON_SCHEMA_MAX_DEPTH } from '../defaults.ts'
import type { SchemaCheck, SchemaValidator } from '../engine/index.ts'
import { fastCheck, loadFastCheck } from './fastCheck.ts'
import { describeErrors, type Draft } from './schemaMessages.ts'

type Library = typeof import('@cfworker/json-schema')
type Compiled = InstanceType<Library['Validator']>

let library: Promise<Library> | undefined
/** Set once the import settled: later checks run without waiting on another tick of the import. */
let loaded: Library | undefined

function loadLibrary(): Promise<Library> {
  library ??= Promise.all([import('@cfworker/json-schema'), loadFastCheck()]).then(([lib]) => (loaded = lib))
  return library
}

/** The draft a schema names in `$schema`; 2020-12 when it names none. */
export function draftOf(schema: unknown): Draft {
  const named =
    typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined
  if (typeof named !== 'string') return '2020-12'
  if (named.includes('draft-04')) return '4'
  if (named.includes('draft-07') || named.includes('draft-06')) return '7'
  if (named.includes('2019-09')) return '2019-09'
  return '2020-12'
}

/** Compiled validators by schema object: a run checks the same tool or output schema again and again. */
const compiled = new WeakMap<object, Compiled>()

function compile(lib: Library, schema: object, draft: Draft): Compiled {
  let validator = compiled.get(schema)
  if (validator === undefined) {
    // shortCircuit false: every problem, so a repair request can name them all.
    validator = new lib.Validator(schema as Record<string, unknown>, draft, false)
    compiled.set(schema, validator)
  }
  return validator
}

/** True when `schema` nests deeper than `max` (walked without recursion). */
export function nestsDeeperThan(schema: unknown, max: number): boolean {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: schema, depth: 0 }]
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number }
    if (typeof node !== 'object' || node === null) continue
    if (depth > max) return true
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 })
  }
  return false
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
}

/** Creates the validator; the library loads on the first call. */
export function createSchemaValidator(): SchemaValidator {
  return {
    async validate(check: SchemaCheck): Promise<string[]> {
      return validateWith(loaded ?? (await loadLibrary()), check)
    },
  }
}

/** The synchronous check once the library is loaded (exported for the benchmark). */
export function validateWith(lib: Library, check: SchemaCheck): string[] {
  const { schema, value, root, maxProblems, lenient } = check
  if (typeof schema === 'boolean') return schema ? [] : [`${root} is not allowed`]
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return lenient ? [] : [`the schema is not a JSON Schema object`]
  }
  if (!compiled.has(schema) && nestsDeeperThan(schema, JSON_SCHEMA_MAX_DEPTH)) {
    return lenient ? [] : [`the schema nests deeper than ${JSON_SCHEMA_MAX_DEPTH} levels`]
  }
  try {
    const draft = draftOf(schema)
    if (fastCheck(schema, value, draft) === true) return []
    const result = compile(lib, schema, draft).validate(value)
    if (result.valid) return []
    return describeErrors(result.errors, schema, value, root).slice(0, maxProblems)
  } catch (error) {
    // An unresolved $ref, a pattern this engine cannot compile, a value too deep to walk.
    return lenient ? [] : [`the schema could not be checked: ${errorText(error)}`]
  }
}

/** Loads the library now (the benchmark times checks, not the first import). */
export function loadSchemaLibrary(): Promise<Library> {
  return loadLibrary()
}
