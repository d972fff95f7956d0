/**
 * Questions the app asks about node types, answered from their definitions only: the palette,
 * ports, roles, host abilities and wiring. Nothing outside `src/nodes/<type>/` switches on a type
 * name; it asks a catalog. `registry.ts` builds the app's catalog from its definitions; a test
 * builds one with a type of its own.
 */
import {
  DEFAULT_PORTS,
  type EngineNodeType,
  type FlowNode,
  type NodePorts,
  type NodeRegistry,
} from '../engine/index.ts'
import { PALETTE_GROUPS, type NodeDefinition, type NodeRole, type NodeUses } from './types.ts'

type Config = Readonly<Record<string, unknown>>

/** A node as far as the catalog needs it. */
export type NodeLike = Pick<FlowNode, 'type'> & { data: { config: Config } }

export interface NodeCatalog {
  readonly definitions: readonly NodeDefinition[]
  /** What `runFlow` and `preflight` receive. */
  readonly engine: NodeRegistry
  get(type: string): NodeDefinition | undefined
  /** Palette types: by group (PALETTE_GROUPS order), then by their `order`. */
  palette(): readonly string[]
  /** The node's role; an unknown type is a placeholder (it cannot run either). */
  role(type: string): NodeRole
  /** The node's ports for its config; an unknown type keeps `in` and `out`, as its body does. */
  ports(node: NodeLike): NodePorts
  uses(node: NodeLike): NodeUses
  /** The field `{{id.field}}` a downstream node most likely wants from this node. */
  mainOutput(node: NodeLike): string | undefined
  /** The target's config after drawing a connection from a node whose main output is `field`. */
  fill(target: NodeLike, reference: string): Config | null
}

/** Parses `config` with the type's schema; undefined when it does not parse (then: no answer). */
function parsed(definition: NodeDefinition, config: Config): unknown {
  const result = definition.schema.safeParse(config)
  return result.success ? result.data : undefined
}

export function createNodeCatalog(definitions: readonly NodeDefinition[]): NodeCatalog {
  const byType = new Map(definitions.map((d) => [d.type, d]))
  const groupIndex = (d: NodeDefinition) => PALETTE_GROUPS.indexOf(d.palette?.group ?? 'notes')
  const palette = definitions
    .filter((d) => d.palette !== undefined)
    .sort((a, b) => groupIndex(a) - groupIndex(b) || (a.palette?.order ?? 0) - (b.palette?.order ?? 0))
    .map((d) => d.type)
  return {
    definitions,
    engine: new Map<string, EngineNodeType>(definitions.map((d) => [d.type, d.engine])),
    get: (type) => byType.get(type),
    palette: () => palette,
    role: (type) => {
      const definition = byType.get(type)
      return definition ? (definition.role ?? 'step') : 'placeholder'
    },
    ports: (node) => {
      const definition = byType.get(node.type)
      if (!definition) return DEFAULT_PORTS
      const config = parsed(definition, node.data.config) ?? definition.defaultConfig()
      return definition.engine.ports(config)
    },
    uses: (node) => {
      const definition = byType.get(node.type)
      const config = definition?.uses ? parsed(definition, node.data.config) : undefined
      return definition?.uses && config !== undefined ? definition.uses(config) : {}
    },
    mainOutput: (node) => {
      const definition = byType.get(node.type)
      const config = definition?.wiring?.mainOutput ? parsed(definition, node.data.config) : undefined
      return config === undefined ? undefined : definition?.wiring?.mainOutput?.(config)
    },
    fill: (target, reference) => {
      const definition = byType.get(target.type)
      const config = definition?.wiring?.fill ? parsed(definition, target.data.config) : undefined
      const patch = config === undefined ? null : definition?.wiring?.fill?.(config, reference)
      // A patch over the stored config: keys the schema does not know are kept as they were.
      return patch ? { ...target.data.config, ...patch } : null
    },
  }
}
