import { describe, expect, it } from 'vitest'
import { adaptQuirks, buildOpenAiBody, defaultQuirks } from '../../src/providers/openaiRequest.ts'

const request = {
  model: 'm',
  messages: [{ role: 'user' as const, content: 'q' }],
  temperature: 0.7,
  maxTokens: 10,
}

describe('adaptQuirks', () => {
  it('drops a refused temperature once, then gives up on further 400s', () => {
    const quirks = defaultQuirks()
    const message =
      "Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported."
    expect(adaptQuirks(quirks, message, true)).toBe(true)
    expect(buildOpenAiBody(request, 'm', true, quirks)).not.toHaveProperty('temperature')
    expect(adaptQuirks(quirks, message, true)).toBe(false)
  })

  it('drops stream_options for servers that do not know it', () => {
    const quirks = defaultQuirks()
    expect(adaptQuirks(quirks, 'Unrecognized request argument supplied: stream_options', true)).toBe(true)
    const body = buildOpenAiBody(request, 'm', true, quirks)
    expect(body).not.toHaveProperty('stream_options')
    expect(body.stream).toBe(true)
  })

  it('leaves ordinary bad requests alone', () => {
    expect(adaptQuirks(defaultQuirks(), 'messages[1].content must be a string', true)).toBe(false)
  })
})

describe('buildOpenAiBody', () => {
  it('sends no tools key for an empty tools list and no stream_options without streaming', () => {
    const body = buildOpenAiBody({ ...request, tools: [] }, 'm', false, defaultQuirks())
    expect(body).not.toHaveProperty('tools')
    expect(body).not.toHaveProperty('stream_options')
    expect(body).toMatchObject({ model: 'm', stream: false, temperature: 0.7, max_tokens: 10 })
  })
})
