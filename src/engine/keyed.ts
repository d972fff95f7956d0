/**
 * Records keyed by ids that come from files: a node id, an output field or an input name may be
 * any name, `constructor`, `toString` or `__proto__` included. A plain `{}` answers a lookup of
 * such a name with an Object.prototype member and turns an assignment to `__proto__` into a
 * prototype swap (the key vanishes). These records have no prototype, so every string is only a
 * key; reads go through `ownValue`, which also holds for ordinary objects (JSON, IndexedDB).
 */

/** An empty record without a prototype, optionally filled from `from`'s own entries. */
export function keyedRecord<T>(from?: Readonly<Record<string, T>>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>
  if (from !== undefined) for (const key of Object.keys(from)) out[key] = from[key] as T
  return out
}

/** `record[key]` when it is the record's own property; undefined for inherited names. */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined
}
