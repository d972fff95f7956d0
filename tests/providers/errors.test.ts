import { describe, expect, it } from 'vitest'
import {
  extractServerMessage,
  httpStatusError,
  looksLikeOllama,
  parseRetryAfter,
} from '../../src/providers/errors.ts'

const target = { label: 'Acme AI', model: 'acme-1', url: 'https://acme.test/v1/chat/completions' }

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')

  it('reads delay-seconds, HTTP dates and retry-after-ms', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '7' }), now)).toBe(7_000)
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), now)).toBe(1_500)
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30_000)
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250)
  })

  it('ignores absent or unreadable values and never returns a negative wait', () => {
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined()
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now)).toBe(0)
  })
})

describe('extractServerMessage', () => {
  it('finds the message in the error shapes of common servers', () => {
    expect(extractServerMessage('{"error":{"message":"bad key","type":"x"}}')).toBe('bad key')
    expect(
      extractServerMessage('{"type":"error","error":{"type":"invalid_request_error","message":"too long"}}'),
    ).toBe('too long')
    expect(extractServerMessage('{"error":"model \\"llama9\\" not found"}')).toBe('model "llama9" not found')
    expect(extractServerMessage('{"object":"error","message":"vllm says no"}')).toBe('vllm says no')
    expect(extractServerMessage('{"detail":[{"msg":"field required"}]}')).toBe('field required')
    expect(extractServerMessage('plain text failure')).toBe('plain text failure')
  })

  it('does not quote HTML error pages and clips long bodies', () => {
    expect(extractServerMessage('<!DOCTYPE html><html><body>502</body></html>')).toBe('')
    expect(extractServerMessage('x'.repeat(10_000)).length).toBeLessThan(2_100)
  })
})

describe('httpStatusError', () => {
  it('gives each status its code and a message a person can act on', () => {
    expect(httpStatusError(403, '', target).code).toBe('PROVIDER_AUTH')
    const notFound = httpStatusError(404, 'no such model', target)
    expect(notFound.code).toBe('PROVIDER_MODEL_NOT_FOUND')
    expect(notFound.message).toContain('"acme-1"')
    expect(notFound.message).toContain('no such model')
    expect(httpStatusError(422, 'bad field', target).code).toBe('PROVIDER_BAD_REQUEST')
    expect(httpStatusError(429, '', target, { attempts: 4 }).message).toContain('4 attempts')
    const server = httpStatusError(503, '', target, { attempts: 4 })
    expect(server.code).toBe('PROVIDER_SERVER')
    expect(server.details).toMatchObject({ status: 503, provider: 'Acme AI' })
  })
})

describe('looksLikeOllama', () => {
  it('recognises the default Ollama port and Ollama host names', () => {
    expect(looksLikeOllama('http://localhost:11434/v1/chat/completions')).toBe(true)
    expect(looksLikeOllama('https://ollama.internal/v1')).toBe(true)
    expect(looksLikeOllama('https://api.openai.com/v1')).toBe(false)
  })
})
