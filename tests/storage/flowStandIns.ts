/**
 * Stand-in definitions of the control-flow node types (condition, merge, loop, subflow) for the
 * PatchCat importer's tests: their schemas accept any object, so what is under test is the
 * importer's mapping (flow-control.md's shapes), not those types' own schemas, and the tests do
 * not depend on when the types land in the registry.
 */
import { z } from 'zod'
import { getNodeDefinition } from '../../src/nodes/registry.ts'
import type { NodeDefinition } from '../../src/nodes/types.ts'
import type { NodeLookup } from '../../src/storage/restore/index.ts'

function standIn(type: string): NodeDefinition {
  const base = getNodeDefinition('template')
  if (base === undefined) throw new Error('the template node type is missing')
  return { ...base, type, configVersion: 1, schema: z.looseObject({}) }
}

const standIns = new Map<string, NodeDefinition>([
  ['condition', standIn('condition')],
  ['merge', standIn('merge')],
  ['loop', standIn('loop')],
  ['subflow', standIn('subflow')],
])

/** The app's registry with the stand-ins for the control-flow types. */
export const withFlowTypes: NodeLookup = (type) => standIns.get(type) ?? getNodeDefinition(type)

/** The app's registry without the control-flow types (a build before they landed). */
export const withoutFlowTypes: NodeLookup = (type) =>
  standIns.has(type) ? undefined : getNodeDefinition(type)
