/**
 * The inspector's field descriptions of a node type, loaded on demand (NodeDefinition.fields):
 * they are not part of the start's JavaScript. Null until loaded; a type loaded once renders
 * its form in the first commit the next time (the cache below), so switching between nodes of
 * a known type does not flash an empty form.
 */
import { useEffect, useState } from 'react'
import type { FieldSpec, NodeDefinition } from '../../nodes/types.ts'

const loaded = new WeakMap<NodeDefinition['fields'], readonly FieldSpec[]>()

export function useNodeFields(definition: NodeDefinition | undefined): readonly FieldSpec[] | null {
  const load = definition?.fields
  const [, rerender] = useState(0)
  useEffect(() => {
    if (!load || loaded.has(load)) return undefined
    let live = true
    // A failed download leaves the form empty; selecting the node again tries again.
    load().then(
      (fields) => {
        loaded.set(load, fields)
        if (live) rerender((n) => n + 1)
      },
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [load])
  return load ? (loaded.get(load) ?? null) : null
}
