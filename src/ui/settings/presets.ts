/** Base URL presets of the provider form. Choosing one sets the provider kind and base URL. */
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

/** The preset a base URL belongs to, or `custom`. */
export function presetOf(baseUrl: string): string {
  const wanted = normalise(baseUrl)
  return BASE_URL_PRESETS.find((p) => normalise(p.baseUrl) === wanted)?.id ?? CUSTOM_PRESET
}
