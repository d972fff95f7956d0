/**
 * The secrets a CLI run is configured with, scrubbed from everything it prints: the key read
 * from --api-key-env, the values of secret-named headers in the flow's HTTP nodes and tools, and
 * --input values named like credentials (`token`, `apiKey`, ...).
 */
import type { FlowDocument } from '../engine/index.ts'
import type { ProviderOverride } from '../providers/resolver.ts'
import { isSecretFieldName, isSecretHeaderName } from '../storage/secrets.ts'

interface KeyValue {
  key: string
  value: string
}

function pairs(value: unknown): KeyValue[] {
  if (!Array.isArray(value)) return []
  return value.filter(
    (item: unknown): item is KeyValue =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as KeyValue).key === 'string' &&
      typeof (item as KeyValue).value === 'string',
  )
}

export function cliSecrets(
  doc: FlowDocument,
  override: ProviderOverride | undefined,
  inputs: Readonly<Record<string, string>>,
): string[] {
  const found: string[] = []
  if (override?.kind === 'openai' && override.apiKey) found.push(override.apiKey.trim(), override.apiKey)
  for (const node of doc.nodes) {
    const { headers, tools } = node.data.config
    const toolHeaders = Array.isArray(tools)
      ? tools.flatMap((tool: unknown) =>
          typeof tool === 'object' && tool !== null ? pairs((tool as { headers?: unknown }).headers) : [],
        )
      : []
    for (const { key, value } of [...pairs(headers), ...toolHeaders]) {
      // A templated value is only known once resolved; its template text is no secret.
      if (!isSecretHeaderName(key) || value.includes('{{')) continue
      found.push(value.trim())
      // A server quoting the credential may leave out its scheme ("Bearer ").
      const credential = /^(?:bearer|basic|token)\s+(\S.*)$/i.exec(value.trim())?.[1]
      if (credential) found.push(credential)
    }
  }
  for (const [name, value] of Object.entries(inputs)) {
    const key = name.slice(name.indexOf('.') + 1)
    if (isSecretFieldName(key)) found.push(value)
  }
  return [...new Set(found.filter((s) => s !== ''))]
}
