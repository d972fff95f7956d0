/**
 * The fast yes/no check in front of the describing validator: ajv compiles a schema into a
 * function (once per schema object), which checks a 100 KB reply in well under a millisecond,
 * where the interpreting library takes several. It needs `new Function`, so where a
 * Content-Security-Policy forbids that (or ajv cannot compile a schema), there is no fast check
 * and the interpreting library does all the work. Loaded on the first check, never with the page.
 */
type Check = (value: unknown) => boolean
type AjvModule = typeof import('ajv/dist/2020.js')

let ajv: { compile(schema: object): Check } | undefined | null
const compiled = new WeakMap<object, Check | null>()

/** True when this realm may generate code (no CSP forbidding 'unsafe-eval'). */
function canGenerateCode(): boolean {
  try {
    return new Function('return 1')() === 1
  } catch {
    return false
  }
}

/** Loads ajv (draft 2020-12) when code generation is allowed; resolves either way. */
export async function loadFastCheck(): Promise<void> {
  if (ajv !== undefined) return
  if (!canGenerateCode()) {
    ajv = null
    return
  }
  try {
    const mod = (await import('ajv/dist/2020.js')) as AjvModule & { default: AjvModule['default'] }
    const Ajv2020 = mod.default
    ajv = new Ajv2020({ allErrors: false, strict: false, allowUnionTypes: true, validateFormats: false })
  } catch {
    ajv = null
  }
}

/**
 * true/false from the compiled schema; undefined when there is no fast check for it (not
 * loaded, no code generation, a draft other than 2020-12, a schema ajv refuses).
 */
export function fastCheck(schema: object, value: unknown, draft: string): boolean | undefined {
  if (!ajv || draft !== '2020-12') return undefined
  let check = compiled.get(schema)
  if (check === undefined) {
    try {
      check = ajv.compile(schema)
    } catch {
      check = null
    }
    compiled.set(schema, check)
  }
  return check === null ? undefined : check(value)
}
