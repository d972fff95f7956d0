import { describe, expect, it } from 'vitest'
import { scrubSecrets } from '../../src/storage/repositories/runs.ts'

const SECRET = 'sk-live-0123456789'

describe('scrubSecrets', () => {
  it('returns an event that holds no secret as it is, without copying it', () => {
    const event = { type: 'nodeChunk', runId: 'r1', nodeId: 'llm', at: 1, text: 'hello ', channel: 'output' }
    expect(scrubSecrets(event, [SECRET])).toBe(event)
  })

  it('still replaces a secret found deep inside, in a copy, leaving the original untouched', () => {
    const event = { type: 'nodeError', details: { headers: [{ value: `Bearer ${SECRET}` }], n: 3 } }
    const scrubbed = scrubSecrets(event, [SECRET])
    expect(scrubbed).toEqual({
      type: 'nodeError',
      details: { headers: [{ value: 'Bearer [redacted]' }], n: 3 },
    })
    expect(event.details.headers[0]?.value).toBe(`Bearer ${SECRET}`)
  })

  it('finds a secret in an array of strings and in a plain string', () => {
    expect(scrubSecrets(['a', `x${SECRET}x`], [SECRET])).toEqual(['a', 'x[redacted]x'])
    expect(scrubSecrets(SECRET, [SECRET])).toBe('[redacted]')
  })
})
