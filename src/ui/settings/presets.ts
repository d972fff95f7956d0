/**
 * Base URL presets of the provider form. Choosing one sets the provider kind and base URL;
 * changing the kind away from a preset's kind moves the URL to that kind's usual server, so
 * kind and preset never disagree (an Anthropic kind with the Ollama URL failed with an error
 * about Ollama).
 */
import type { ProviderKind } from '../../settings/schema.ts'

export interface BaseUrlPreset {
  id: string
  /** Product names are not translated. */
  label: string
  kind: ProviderKind
  baseUrl: string
}

export const BASE_URL_PRESETS: readonly BaseUrlPreset[] = [
  { id: 'openai', label: 'OpenAI', kind: 'openai', baseUrl: 'https://api.openai.com/v1' },
  { id: 'deepseek', label: 'DeepSeek', kind: 'openai', baseUrl: 'https://api.deepseek.com/v1' },
  {
    id: 'gemini',
    label: 'Google Gemini (OpenAI endpoint)',
    kind: 'openai',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
  },
  { id: 'ollama', label: 'Ollama (local)', kind: 'openai', baseUrl: 'http://localhost:11434/v1' },
  { id: 'lmstudio', label: 'LM Studio (local)', kind: 'openai', baseUrl: 'http://localhost:1234/v1' },
  { id: 'anthropic', label: 'Anthropic', kind: 'anthropic', baseUrl: 'https://api.anthropic.com' },
]

export const CUSTOM_PRESET = 'custom'

function normalise(url: string): string {
  return url.trim().replace(/\/+$/, '').toLowerCase()
}

/** The preset whose URL this is (whatever its kind), if any. */
export function presetWithUrl(baseUrl: string): BaseUrlPreset | undefined {
  const wanted = normalise(baseUrl)
  return BASE_URL_PRESETS.find((p) => normalise(p.baseUrl) === wanted)
}

/** The preset a base URL and kind belong to, or `custom` (also for a preset URL of another kind). */
export function presetOf(baseUrl: string, kind: ProviderKind): string {
  const preset = presetWithUrl(baseUrl)
  return preset !== undefined && preset.kind === kind ? preset.id : CUSTOM_PRESET
}

/**
 * The base URL to keep when the kind changes to `kind`: a custom URL stays (a proxy may speak
 * either protocol), an empty one or another kind's preset URL becomes the kind's first preset.
 */
export function baseUrlForKind(baseUrl: string, kind: ProviderKind): string {
  if (kind === 'demo') return baseUrl
  const preset = presetWithUrl(baseUrl)
  if (baseUrl.trim() !== '' && (preset === undefined || preset.kind === kind)) return baseUrl
  return BASE_URL_PRESETS.find((p) => p.kind === kind)?.baseUrl ?? baseUrl
}
