/**
 * The protection settings one Agent node runs with: node value > global setting > default
 * (docs/guard.md, layer 4).
 */
import { AGENT_FINALIZE_AFTER_STOP } from '../../defaults.ts'
import { defaultProtection, type RuntimeProtection } from '../context.ts'

export interface AgentProtection extends RuntimeProtection {
  /** After a trip or a budget stop, one tools-disabled call turns what was gathered into an answer. */
  finalizeAfterStop: boolean
}

/** What a node may override; unset (or null) fields inherit. */
export type AgentProtectionOverrides = { [K in keyof AgentProtection]?: AgentProtection[K] | null }

/** Resolves each setting: the node's own value, else the global setting, else the default. */
export function resolveAgentProtection(
  node: AgentProtectionOverrides = {},
  global?: Partial<RuntimeProtection>,
): AgentProtection {
  const base: AgentProtection = { ...defaultProtection(), finalizeAfterStop: AGENT_FINALIZE_AFTER_STOP }
  const out = { ...base }
  for (const key of Object.keys(base) as Array<keyof AgentProtection>) {
    const value = node[key] ?? (key === 'finalizeAfterStop' ? undefined : global?.[key]) ?? base[key]
    Object.assign(out, { [key]: value })
  }
  return out
}
