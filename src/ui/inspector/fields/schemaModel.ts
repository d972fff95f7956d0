/**
 * Edits of a structured-output schema that the form offers (pure, so they are tested without a
 * DOM): a schema made from an example value, and top-level fields added or removed one by one.
 */
export type Schema = Record<string, unknown>

export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'enum'] as const
export type FieldType = (typeof FIELD_TYPES)[number]

export interface SchemaField {
  name: string
  /** 'other' for a field the form does not edit (an object, a list): Monaco does. */
  type: FieldType | 'other'
  required: boolean
  enumValues: string[]
}

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A new node's schema: an object with no fields yet that allows nothing else. */
export function emptyObjectSchema(): Schema {
  return { type: 'object', properties: {}, required: [], additionalProperties: false }
}

/**
 * The schema of `example`: objects list every key as required and allow no others (what OpenAI's
 * strict mode accepts), a list takes its first item's shape, numbers without a fraction are integers.
 */
export function schemaFromExample(example: unknown): Schema {
  if (example === null) return { type: 'null' }
  if (Array.isArray(example))
    return { type: 'array', items: example.length > 0 ? schemaFromExample(example[0]) : {} }
  if (isRecord(example)) {
    const keys = Object.keys(example)
    return {
      type: 'object',
      properties: Object.fromEntries(keys.map((key) => [key, schemaFromExample(example[key])])),
      required: keys,
      additionalProperties: false,
    }
  }
  if (typeof example === 'number') return { type: Number.isInteger(example) ? 'integer' : 'number' }
  if (typeof example === 'boolean') return { type: 'boolean' }
  return { type: 'string' }
}

function fieldType(schema: unknown): { type: SchemaField['type']; enumValues: string[] } {
  if (!isRecord(schema)) return { type: 'other', enumValues: [] }
  if (Array.isArray(schema['enum'])) {
    const values = schema['enum']
    return values.every((v) => typeof v === 'string')
      ? { type: 'enum', enumValues: values as string[] }
      : { type: 'other', enumValues: [] }
  }
  const type = schema['type']
  const simple = (FIELD_TYPES as readonly unknown[]).includes(type) && type !== 'enum'
  return { type: simple ? (type as FieldType) : 'other', enumValues: [] }
}

/** The top-level fields of an object schema, in order. */
export function topFields(schema: Schema): SchemaField[] {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {}
  const required = Array.isArray(schema['required']) ? schema['required'] : []
  return Object.entries(properties).map(([name, sub]) => ({
    name,
    ...fieldType(sub),
    required: required.includes(name),
  }))
}

function fieldSchema(field: Pick<SchemaField, 'type' | 'enumValues'>): Schema {
  if (field.type === 'enum') return { type: 'string', enum: field.enumValues }
  return { type: field.type === 'other' ? 'string' : field.type }
}

/** `schema` with `field` added (or replaced, keeping its place), required or not. */
export function withField(schema: Schema, field: SchemaField): Schema {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {}
  const required = (Array.isArray(schema['required']) ? schema['required'] : []).filter(
    (name) => name !== field.name,
  )
  return {
    ...schema,
    type: 'object',
    properties: { ...properties, [field.name]: fieldSchema(field) },
    required: field.required ? [...required, field.name] : required,
  }
}

/** `schema` without the top-level field `name`. */
export function withoutField(schema: Schema, name: string): Schema {
  const properties = isRecord(schema['properties']) ? { ...schema['properties'] } : {}
  delete properties[name]
  const required = (Array.isArray(schema['required']) ? schema['required'] : []).filter((n) => n !== name)
  return { ...schema, properties, required }
}
