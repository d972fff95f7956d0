/**
 * Workflow exports redact credentials inside an HTTP node's body text (JSON fields and form
 * pairs named like credentials), as they do for headers: a body used to leave the file whole.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { exportWorkflow } from '../../src/storage/workflowFile.ts'
import { flow } from '../support/flowBuilders.ts'
import { config } from './support.ts'

const SECRET_FIELDS = [
  'api_key',
  'apiKey',
  'password',
  'token',
  'access_token',
  'client_secret',
  'refreshToken',
]

function httpFlow(body: string) {
  return flow()
    .node('in', 'input', config('input', { values: { city: 'Oslo' } }))
    .node('web', 'http', config('http', { method: 'POST', url: 'https://api.example.test/v1', body }))
    .edge('in', 'web')
    .build()
}

describe('HTTP bodies in workflow exports', () => {
  it('empties credential fields of a JSON body and of a form body, and lists them', () => {
    const json =
      '{"api_key": "hunter2-json-key", "password":"pa55w0rd-json", "token" : "tok-json-123", "city": "{{in.city}}", "max_tokens": 5}'
    const { text, redacted } = exportWorkflow(httpFlow(json))
    for (const secret of ['hunter2-json-key', 'pa55w0rd-json', 'tok-json-123'])
      expect(text).not.toContain(secret)
    const body = (JSON.parse(text) as { nodes: Array<{ data: { config: { body?: string } } }> }).nodes[1]
      ?.data.config.body
    expect(body).toBe('{"api_key": "", "password":"", "token" : "", "city": "{{in.city}}", "max_tokens": 5}')
    expect(redacted).toContain('nodes[1].data.config.body')

    const form = exportWorkflow(httpFlow('api_key=hunter2-form-key&q=cats&password=pw-form-secret'))
    expect(form.text).not.toContain('hunter2-form-key')
    expect(form.text).not.toContain('pw-form-secret')
    expect(form.text).toContain('api_key=&q=cats&password=')
  })

  it('keeps a credential field that only names a template: the secret is not in the file', () => {
    const { text, redacted } = exportWorkflow(
      httpFlow('{"token": "{{in.token}}", "note": "the token is sent"}'),
    )
    expect(text).toContain('{\\"token\\": \\"{{in.token}}\\"')
    expect(redacted).toEqual([])
  })

  it('no planted credential survives in a JSON body (300 random bodies)', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{10,24}$/)
    const plain = fc.stringMatching(/^[a-z ]{0,12}$/)
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRET_FIELDS),
        secret,
        plain,
        fc.boolean(),
        (field, value, other, pretty) => {
          const fields = { note: other, [field]: value, city: '{{in.city}}' }
          const body = pretty ? JSON.stringify(fields, null, 2) : JSON.stringify(fields)
          const { text } = exportWorkflow(httpFlow(body))
          expect(text).not.toContain(value)
          const out = JSON.parse(
            (JSON.parse(text) as { nodes: Array<{ data: { config: { body: string } } }> }).nodes[1]?.data
              .config.body ?? '',
          ) as Record<string, string>
          expect(out).toEqual({ note: other, [field]: '', city: '{{in.city}}' })
        },
      ),
      { numRuns: 300 },
    )
  })
})
