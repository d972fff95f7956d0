/**
 * Which column of a data row sets which Input key of the flow: pure, shared by the browser's
 * batch screen (which offers the mapping and lets the person change it) and the CLI (whose rows
 * set Input values by column name, `columnInputs`).
 */
import { keyedRecord, ownValue } from '../engine/index.ts'

/** Input key -> the column that sets it; `null`: the Input node keeps its own value. No prototype. */
export type InputMapping = Record<string, string | null>

/** A name compared loosely: case, spaces, `-` and `_` do not count (`User Name` matches `user_name`). */
export function looseName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, '')
}

/**
 * The mapping by name: each Input key gets the column of exactly its name, else the one column
 * whose loose name is the key's (two such columns: none, rather than a guess).
 */
export function autoMap(inputKeys: readonly string[], columns: readonly string[]): InputMapping {
  const exact = new Set(columns)
  const loose = new Map<string, string | null>()
  for (const column of columns) {
    const key = looseName(column)
    loose.set(key, loose.has(key) ? null : column)
  }
  const mapping = keyedRecord<string | null>()
  for (const key of inputKeys) {
    if (exact.has(key)) mapping[key] = key
    else mapping[key] = loose.get(looseName(key)) ?? null
  }
  return mapping
}

/** A row value as an Input value: text as it is, null and absent as empty, anything else as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined || value === null) return ''
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value)
  return JSON.stringify(value)
}

/** The run inputs of one row under `mapping` (only keys mapped to a column the row has). */
export function rowInputs(
  values: Readonly<Record<string, unknown>>,
  mapping: InputMapping,
): Record<string, string> {
  const inputs = keyedRecord<string>()
  for (const [key, column] of Object.entries(mapping)) {
    if (column === null || !Object.hasOwn(values, column)) continue
    inputs[key] = valueText(ownValue(values, column))
  }
  return inputs
}

/** Every column sets the Input key of its own name (the CLI's rule, flow-control.md "CLI"). */
export function columnInputs(values: Readonly<Record<string, unknown>>): Record<string, string> {
  const inputs = keyedRecord<string>()
  for (const column of Object.keys(values)) inputs[column] = valueText(ownValue(values, column))
  return inputs
}

/** Input keys that no column sets (the person may want to know before running). */
export function unmappedKeys(mapping: InputMapping): string[] {
  return Object.keys(mapping).filter((key) => mapping[key] === null)
}

/** Columns that set no Input key. */
export function unusedColumns(columns: readonly string[], mapping: InputMapping): string[] {
  const used = new Set(Object.values(mapping).filter((c): c is string => c !== null))
  return columns.filter((c) => !used.has(c))
}
