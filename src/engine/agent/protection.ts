/**
 * The protection settings one Agent node runs with: node value > global setting > default
 * (docs/guard.md, layer 4).
 */
import { AGENT_FINALIZE_AFTER_STOP } from '../../defaults.ts'
import { inheritedProtection, type InheritedSetting, type RuntimeProtection } from '../context.ts'

export interface AgentProtection extends RuntimeProtection {
  /** After a trip or a budget stop, one tools-disabled call turns what was gathered into an answer. */
  finalizeAfterStop: boolean
}

/** What a node may override; unset (or null) fields inherit. */
export type AgentProtectionOverrides = { [K in keyof AgentProtection]?: AgentProtection[K] | null }

/**
 * What an Agent node that leaves every protection field empty runs with, and where each value
 * comes from: the global settings, else the built-in defaults (`finalizeAfterStop` has no
 * global setting, so it is always the default).
 */
export function inheritedAgentProtection(global?: Partial<RuntimeProtection>): {
  [K in keyof AgentProtection]: InheritedSetting<AgentProtection[K]>
} {
  return {
    ...inheritedProtection(global),
    finalizeAfterStop: { value: AGENT_FINALIZE_AFTER_STOP, source: 'default' },
  }
}

/** Resolves each setting: the node's own value, else what it inherits (inheritedAgentProtection). */
export function resolveAgentProtection(
  node: AgentProtectionOverrides = {},
  global?: Partial<RuntimeProtection>,
): AgentProtection {
  const inherited = inheritedAgentProtection(global)
  const out = {} as AgentProtection
  for (const key of Object.keys(inherited) as Array<keyof AgentProtection>) {
    Object.assign(out, { [key]: node[key] ?? inherited[key].value })
  }
  return out
}
