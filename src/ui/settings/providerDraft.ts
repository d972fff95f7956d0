/** Checks on a provider being edited, before it is saved into settings. Pure. */
import type { ProviderSettings } from '../../settings/schema.ts'
import { presetWithUrl } from './presets.ts'

export type ProviderField = 'id' | 'label' | 'baseUrl' | 'headers'
export type ProviderProblems = Partial<Record<ProviderField, string>>

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const LABEL_MAX_CHARS = 100

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** Problem keys (settings catalogue, under `provider.problems`) per field; empty when valid. */
export function checkProvider(draft: ProviderSettings, otherIds: readonly string[]): ProviderProblems {
  const problems: ProviderProblems = {}
  if (!ID_PATTERN.test(draft.id)) problems.id = 'idInvalid'
  else if (otherIds.includes(draft.id)) problems.id = 'idTaken'
  if (draft.label.length > LABEL_MAX_CHARS) problems.label = 'labelLong'
  const base = draft.baseUrl.trim()
  if (draft.kind === 'openai' && base === '') problems.baseUrl = 'baseUrlRequired'
  else if (draft.kind !== 'demo' && base !== '' && !isHttpUrl(base)) problems.baseUrl = 'baseUrlInvalid'
  else if (draft.kind !== 'demo' && (presetWithUrl(base)?.kind ?? draft.kind) !== draft.kind)
    problems.baseUrl = 'presetKind'
  if (draft.headers.some((h) => h.key.trim() !== '' && !HEADER_NAME.test(h.key.trim())))
    problems.headers = 'headerName'
  else if (draft.headers.some((h) => h.key.trim() === '' && h.value !== ''))
    problems.headers = 'headerMissingName'
  return problems
}

/** The draft as it is saved: trimmed URL and header names, empty header rows dropped. */
export function cleanProvider(draft: ProviderSettings): ProviderSettings {
  return {
    ...draft,
    label: draft.label.trim(),
    baseUrl: draft.baseUrl.trim(),
    model: draft.model.trim(),
    headers: draft.headers
      .filter((h) => h.key.trim() !== '' || h.value !== '')
      .map((h) => ({ key: h.key.trim(), value: h.value })),
  }
}

/** A fresh provider with an id not used yet. */
export function newProvider(takenIds: readonly string[]): ProviderSettings {
  let n = 1
  while (takenIds.includes(`provider_${n}`)) n += 1
  return {
    id: `provider_${n}`,
    label: '',
    kind: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: '',
    models: [],
    apiKey: '',
    stream: true,
    headers: [],
  }
}
