/**
 * Per-node config restore: migrate an older `configVersion` with the node definition's
 * `migrate`, then validate with its schema. Unknown types become `unsupported` placeholders
 * that keep the original JSON.
 */
import { UNSUPPORTED_TYPE, type ConfigIssue, type FlowNode } from '../../engine/index.ts'
import { getNodeDefinition } from '../../nodes/registry.ts'
import { formatPath, type NodeDefinition } from '../../nodes/types.ts'
import { isPlainObject } from './schema.ts'
import { zodIssueText } from '../../issueText.ts'

/** Finds a node type's definition; the registry by default, a fake in tests. */
export type NodeLookup = (type: string) => NodeDefinition | undefined

export const defaultNodeLookup: NodeLookup = getNodeDefinition

export type ConfigResult =
  { ok: true; config: Record<string, unknown>; migratedFrom?: number } | { ok: false; issues: ConfigIssue[] }

/** Migrates and validates one config against its definition. Never throws. */
export function restoreConfig(definition: NodeDefinition, raw: Record<string, unknown>): ConfigResult {
  const current = definition.configVersion
  const stated = raw.configVersion
  const version = stated === undefined ? 1 : stated
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return {
      ok: false,
      issues: [
        {
          path: 'configVersion',
          message: 'configVersion must be a whole number from 1.',
          key: 'issues:importProblem.config.badVersion',
        },
      ],
    }
  }
  if (version > current) {
    return {
      ok: false,
      issues: [
        {
          path: 'configVersion',
          message: `These ${definition.type} settings were written by a newer Wardflow (version ${version}; this app reads up to ${current}).`,
          key: 'issues:importProblem.config.newerVersion',
          params: { type: definition.type, found: version, version: current },
        },
      ],
    }
  }
  let candidate: Record<string, unknown> = raw
  if (version < current) {
    try {
      const migrated = definition.migrate ? definition.migrate({ ...raw }, version) : { ...raw }
      candidate = { ...migrated, configVersion: current }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return {
        ok: false,
        issues: [{ path: '', message: `Could not update these settings from version ${version}: ${reason}` }],
      }
    }
  }
  const parsed = definition.schema.safeParse(candidate)
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => ({
        path: formatPath(i.path),
        message: i.message,
        ...zodIssueText(i),
      })),
    }
  }
  if (!isPlainObject(parsed.data))
    return { ok: false, issues: [{ path: '', message: 'Settings must be an object.' }] }
  return version < current
    ? { ok: true, config: parsed.data, migratedFrom: version }
    : { ok: true, config: parsed.data }
}

/**
 * A placeholder for a node Wardflow cannot run. `original` is the node exactly as the source
 * had it, so re-export keeps it.
 */
export function unsupportedNode(
  id: string,
  originalType: string,
  original: unknown,
  position: { x: number; y: number },
  label: string,
  lookup: NodeLookup = defaultNodeLookup,
): FlowNode {
  const raw = { originalType, original }
  const definition = lookup(UNSUPPORTED_TYPE)
  const parsed = definition?.schema.safeParse(raw)
  const config = parsed?.success === true && isPlainObject(parsed.data) ? parsed.data : raw
  return { id, type: UNSUPPORTED_TYPE, position: { x: position.x, y: position.y }, data: { label, config } }
}
