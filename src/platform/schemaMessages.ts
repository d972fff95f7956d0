/**
 * Words the library's output units the way Wardflow's messages read (`arguments.days must be
 * >= 1`), so a model asked to repair its reply, and a person reading the console, see the
 * place and the rule. Units that only say "a child failed" (properties, items, allOf, $ref...)
 * are dropped for the child's own unit; the parts of a failed anyOf/oneOf/not are folded into it.
 */
import type { OutputUnit } from '@cfworker/json-schema'

export type Draft = '4' | '7' | '2019-09' | '2020-12'

/** Keywords whose unit only reports that a sub-schema failed; the sub-schema's own unit says how. */
const CONTAINERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'if',
  'then',
  'else',
  'propertyNames',
])
/** Keywords whose parts are not reported one by one: "matches none" says it. */
const FOLDED = ['anyOf', 'oneOf', 'not']

function pointerSegments(pointer: string): string[] {
  const body = pointer.replace(/^#\/?/, '')
  if (body === '') return []
  return body.split('/').map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'))
}

function at(root: unknown, segments: readonly string[]): unknown {
  let value = root
  for (const segment of segments) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) return undefined
    value = (value as Record<string, unknown>)[segment]
  }
  return value
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** `data.items[2].name` from the instance pointer, indices where the value is an array. */
function placeOf(root: string, value: unknown, pointer: string): string {
  let place = root
  let current = value
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) place += `[${segment}]`
    else place += /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`
    current = at(current, [segment])
  }
  return place
}

function quoted(error: string): string | undefined {
  return /"((?:[^"\\]|\\.)*)"/.exec(error)?.[1]
}

function wording(
  unit: OutputUnit,
  rule: unknown,
  place: string,
  instance: unknown,
  sibling: (keyword: string) => unknown,
): string {
  switch (unit.keyword) {
    case 'required':
    case 'dependentRequired':
      return `${place}.${quoted(unit.error) ?? '?'} is required`
    case 'type': {
      const types = Array.isArray(rule) ? rule.map(String) : [String(rule)]
      return `${place} must be ${types.join(' or ')}, not ${typeOf(instance)}`
    }
    case 'enum':
      return `${place} must be one of ${Array.isArray(rule) ? rule.map(show).join(', ') : show(rule)}`
    case 'const':
      return `${place} must be ${show(rule)}`
    case 'minimum':
      return `${place} must be >= ${String(rule)}`
    case 'maximum':
      return `${place} must be <= ${String(rule)}`
    case 'exclusiveMinimum':
      return `${place} must be > ${String(rule === true ? sibling('minimum') : rule)}`
    case 'exclusiveMaximum':
      return `${place} must be < ${String(rule === true ? sibling('maximum') : rule)}`
    case 'multipleOf':
      return `${place} must be a multiple of ${String(rule)}`
    case 'minLength':
      return `${place} must have at least ${String(rule)} characters`
    case 'maxLength':
      return `${place} must have at most ${String(rule)} characters`
    case 'pattern':
      return `${place} must match the pattern ${show(rule)}`
    case 'minItems':
      return `${place} must have at least ${String(rule)} items`
    case 'maxItems':
      return `${place} must have at most ${String(rule)} items`
    case 'uniqueItems':
      return `${place} must not repeat items (${unit.error.replace(/\.$/, '').toLowerCase()})`
    case 'minProperties':
      return `${place} must have at least ${String(rule)} properties`
    case 'maxProperties':
      return `${place} must have at most ${String(rule)} properties`
    case 'anyOf':
      return `${place} matches none of the allowed shapes`
    case 'oneOf':
      return `${place} must match exactly one allowed shape`
    case 'not':
      return `${place} matches a shape that is not allowed`
    case 'false':
      return `${place} is not allowed`
    default:
      return `${place}: ${unit.error}`
  }
}

/** The readable problems of one failed validation, in the library's order, without repeats. */
export function describeErrors(
  units: readonly OutputUnit[],
  schema: unknown,
  value: unknown,
  root: string,
): string[] {
  const out: string[] = []
  const folded: string[] = []
  const extras = new Set<string>()
  for (const unit of units) {
    const location = unit.keywordLocation
    if (folded.some((prefix) => location.startsWith(prefix))) continue
    if (FOLDED.includes(unit.keyword)) folded.push(`${location}/`)
    if (unit.keyword === 'additionalProperties') {
      const name = quoted(unit.error)
      if (name !== undefined) extras.add(`${unit.instanceLocation}/${name}`)
      continue
    }
    if (CONTAINERS.has(unit.keyword)) continue
    const segments = pointerSegments(location)
    const rule = at(schema, segments)
    const instance = at(value, pointerSegments(unit.instanceLocation))
    if (unit.keyword === 'false' && extras.has(unit.instanceLocation)) {
      const parent = unit.instanceLocation.slice(0, unit.instanceLocation.lastIndexOf('/'))
      const name = pointerSegments(unit.instanceLocation).at(-1) ?? ''
      out.push(`${placeOf(root, value, parent)} has an unknown property ${JSON.stringify(name)}`)
      continue
    }
    // Draft 4's boolean exclusiveMaximum: the bound is the sibling `maximum`.
    const sibling = (keyword: string): unknown => at(schema, [...segments.slice(0, -1), keyword])
    const text = wording(unit, rule, placeOf(root, value, unit.instanceLocation), instance, sibling)
    if (!out.includes(text)) out.push(text)
  }
  return out
}
