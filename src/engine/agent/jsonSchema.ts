/**
 * A small JSON Schema checker for tool arguments (the engine takes no dependencies). It covers
 * what tool schemas use: type, enum/const, properties/required/additionalProperties,
 * items/prefixItems, min/max of numbers, strings and arrays, pattern, multipleOf, uniqueItems
 * and allOf/anyOf/oneOf/not. Unknown keywords (`$ref`, `format`, ...) are ignored, so a schema it
 * does not understand lets the call through rather than blocking a working tool.
 */
import { AGENT_SCHEMA_MAX_DEPTH, AGENT_SCHEMA_MAX_PROBLEMS } from '../../defaults.ts'

type Schema = Record<string, unknown>

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'object':
      return isRecord(value)
    default:
      return typeOf(value) === type
  }
}

/** Structural equality of JSON values (key order ignored), for enum, const and uniqueItems. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]))
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a)
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]))
    )
  }
  return false
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}

class Checker {
  readonly problems: string[] = []

  get full(): boolean {
    return this.problems.length >= AGENT_SCHEMA_MAX_PROBLEMS
  }

  add(message: string): void {
    if (!this.full) this.problems.push(message)
  }

  check(value: unknown, schema: unknown, path: string, depth: number): void {
    if (this.full || depth > AGENT_SCHEMA_MAX_DEPTH) return
    if (schema === false) return this.add(`${path} is not allowed`)
    if (!isRecord(schema)) return
    if (!this.checkType(value, schema, path)) return
    if (Array.isArray(schema.enum) && !schema.enum.some((option) => jsonEqual(option, value))) {
      this.add(`${path} must be one of ${schema.enum.map(show).join(', ')}`)
    }
    if ('const' in schema && !jsonEqual(schema.const, value))
      this.add(`${path} must be ${show(schema.const)}`)
    if (typeof value === 'number') this.checkNumber(value, schema, path)
    else if (typeof value === 'string') this.checkString(value, schema, path)
    else if (Array.isArray(value)) this.checkArray(value, schema, path, depth)
    else if (isRecord(value)) this.checkObject(value, schema, path, depth)
    this.checkCombinators(value, schema, path, depth)
  }

  private checkType(value: unknown, schema: Schema, path: string): boolean {
    const types =
      typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : []
    const names = types.filter((t): t is string => typeof t === 'string')
    if (names.length === 0 || names.some((t) => matchesType(value, t))) return true
    this.add(`${path} must be ${names.join(' or ')}, not ${typeOf(value)}`)
    return false
  }

  private checkNumber(value: number, s: Schema, path: string): void {
    const num = (key: string): number | undefined =>
      typeof s[key] === 'number' ? (s[key] as number) : undefined
    const min = num('minimum')
    const max = num('maximum')
    if (min !== undefined && (s.exclusiveMinimum === true ? value <= min : value < min)) {
      this.add(`${path} must be ${s.exclusiveMinimum === true ? '>' : '>='} ${min}`)
    }
    if (max !== undefined && (s.exclusiveMaximum === true ? value >= max : value > max)) {
      this.add(`${path} must be ${s.exclusiveMaximum === true ? '<' : '<='} ${max}`)
    }
    const exMin = num('exclusiveMinimum')
    const exMax = num('exclusiveMaximum')
    if (exMin !== undefined && value <= exMin) this.add(`${path} must be > ${exMin}`)
    if (exMax !== undefined && value >= exMax) this.add(`${path} must be < ${exMax}`)
    const step = num('multipleOf')
    if (step !== undefined && step > 0) {
      const ratio = value / step
      if (Math.abs(ratio - Math.round(ratio)) > Number.EPSILON * Math.max(1, Math.abs(ratio))) {
        this.add(`${path} must be a multiple of ${step}`)
      }
    }
  }

  private checkString(value: string, s: Schema, path: string): void {
    const length = [...value].length
    if (typeof s.minLength === 'number' && length < s.minLength)
      this.add(`${path} must have at least ${s.minLength} characters`)
    if (typeof s.maxLength === 'number' && length > s.maxLength)
      this.add(`${path} must have at most ${s.maxLength} characters`)
    if (typeof s.pattern === 'string') {
      let re: RegExp | undefined
      try {
        re = new RegExp(s.pattern, 'u')
      } catch {
        re = undefined // a pattern this engine cannot compile does not block the call
      }
      if (re && !re.test(value)) this.add(`${path} must match the pattern ${show(s.pattern)}`)
    }
  }

  private checkArray(value: unknown[], s: Schema, path: string, depth: number): void {
    if (typeof s.minItems === 'number' && value.length < s.minItems)
      this.add(`${path} must have at least ${s.minItems} items`)
    if (typeof s.maxItems === 'number' && value.length > s.maxItems)
      this.add(`${path} must have at most ${s.maxItems} items`)
    // `items` as an array is the older spelling of prefixItems.
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : []
    const rest = Array.isArray(s.items) ? s.additionalItems : s.items
    value.forEach((item, i) => {
      const itemSchema: unknown = i < prefix.length ? prefix[i] : rest
      if (itemSchema !== undefined) this.check(item, itemSchema, childPath(path, i), depth + 1)
    })
    if (s.uniqueItems === true) {
      const duplicate = value.findIndex((item, i) =>
        value.slice(0, i).some((other) => jsonEqual(other, item)),
      )
      if (duplicate >= 0)
        this.add(`${path} must not repeat items (${childPath(path, duplicate)} repeats an earlier one)`)
    }
  }

  private checkObject(value: Record<string, unknown>, s: Schema, path: string, depth: number): void {
    const properties = isRecord(s.properties) ? s.properties : {}
    if (Array.isArray(s.required)) {
      for (const key of s.required) {
        if (typeof key === 'string' && !Object.hasOwn(value, key))
          this.add(`${childPath(path, key)} is required`)
      }
    }
    for (const [key, item] of Object.entries(value)) {
      if (Object.hasOwn(properties, key)) this.check(item, properties[key], childPath(path, key), depth + 1)
      else if (s.additionalProperties === false)
        this.add(`${path} has an unknown property ${JSON.stringify(key)}`)
      else if (isRecord(s.additionalProperties))
        this.check(item, s.additionalProperties, childPath(path, key), depth + 1)
    }
  }

  private checkCombinators(value: unknown, s: Schema, path: string, depth: number): void {
    const passes = (schema: unknown): boolean => validateAt(value, schema, path, depth + 1).length === 0
    if (Array.isArray(s.allOf)) for (const sub of s.allOf) this.check(value, sub, path, depth + 1)
    if (Array.isArray(s.anyOf) && !s.anyOf.some(passes)) this.add(`${path} does not match any allowed shape`)
    if (Array.isArray(s.oneOf) && s.oneOf.filter(passes).length !== 1)
      this.add(`${path} must match exactly one allowed shape`)
    if (s.not !== undefined && passes(s.not)) this.add(`${path} matches a shape that is not allowed`)
  }
}

function validateAt(value: unknown, schema: unknown, path: string, depth: number): string[] {
  const checker = new Checker()
  checker.check(value, schema, path, depth)
  return checker.problems
}

/**
 * Checks tool arguments against the tool's JSON Schema; returns readable problems (at most
 * AGENT_SCHEMA_MAX_PROBLEMS), empty when the arguments fit. Never throws.
 */
export function validateToolArguments(args: unknown, schema: unknown): string[] {
  try {
    return validateAt(args, schema, 'arguments', 0)
  } catch {
    return []
  }
}
