/** Kind and server preset never disagree in the provider form (pure rules behind it). */
import { describe, expect, it } from 'vitest'
import { baseUrlForKind, presetOf } from '../../../src/ui/settings/presets.ts'
import { checkProvider, newProvider } from '../../../src/ui/settings/providerDraft.ts'

describe('provider presets and kinds', () => {
  it('a preset URL names its preset only with its own kind', () => {
    expect(presetOf('http://localhost:11434/v1', 'openai')).toBe('ollama')
    expect(presetOf('http://localhost:11434/v1', 'anthropic')).toBe('custom')
    expect(presetOf('https://api.anthropic.com/', 'anthropic')).toBe('anthropic')
  })

  it("changing the kind moves another kind's preset URL (or none) to the kind's usual server; a custom URL stays", () => {
    expect(baseUrlForKind('http://localhost:11434/v1', 'anthropic')).toBe('https://api.anthropic.com')
    expect(baseUrlForKind('https://api.anthropic.com', 'openai')).toBe('https://api.openai.com/v1')
    expect(baseUrlForKind('', 'anthropic')).toBe('https://api.anthropic.com')
    expect(baseUrlForKind('https://proxy.internal.test/llm', 'anthropic')).toBe(
      'https://proxy.internal.test/llm',
    )
    expect(baseUrlForKind('http://localhost:11434/v1', 'openai')).toBe('http://localhost:11434/v1')
  })

  it('refuses an Anthropic kind with the Ollama URL (the error would be about Ollama)', () => {
    const draft = { ...newProvider([]), kind: 'anthropic' as const, baseUrl: 'http://localhost:11434/v1' }
    expect(checkProvider(draft, []).baseUrl).toBe('presetKind')
    expect(checkProvider({ ...draft, kind: 'openai' }, []).baseUrl).toBeUndefined()
  })
})
