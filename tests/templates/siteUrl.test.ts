import { describe, expect, it } from 'vitest'
import { FlowError } from '../../src/engine/index.ts'
import { resolveRequestUrl } from '../../src/nodes/http/url.ts'

function failure(run: () => unknown): FlowError {
  try {
    run()
  } catch (error) {
    if (error instanceof FlowError) return error
    throw error
  }
  throw new Error('expected a FlowError')
}

describe('site-relative request URLs (templates read JSON the site serves)', () => {
  it('resolves ./ and ../ against the site base, keeping the sub-path', () => {
    const base = 'https://me.github.io/wardflow/'
    expect(resolveRequestUrl('./data/meetup/cities.json', base).href).toBe(
      'https://me.github.io/wardflow/data/meetup/cities.json',
    )
    expect(resolveRequestUrl('../other/x.json', 'https://me.github.io/wardflow/index.html').href).toBe(
      'https://me.github.io/other/x.json',
    )
  })

  it('refuses a site-relative URL when the run has no site (the CLI), saying where it works', () => {
    const error = failure(() => resolveRequestUrl('./data/x.json', undefined, 'agent'))
    expect(error.code).toBe('HTTP_BAD_URL')
    expect(error.nodeId).toBe('agent')
    expect(error.message).toContain('only works in the web app')
  })

  it('still refuses a host without a scheme and non-http schemes, even with a site base', () => {
    const base = 'https://me.github.io/wardflow/'
    expect(failure(() => resolveRequestUrl('example.com/x', base)).message).toContain('is not a full URL')
    expect(failure(() => resolveRequestUrl('/data/x.json', base)).message).toContain('is not a full URL')
    expect(failure(() => resolveRequestUrl('file:///etc/passwd', base)).message).toContain('Only http://')
  })

  it('leaves full URLs alone', () => {
    expect(resolveRequestUrl('http://127.0.0.1:8080/a?b=1', 'https://x.test/').href).toBe(
      'http://127.0.0.1:8080/a?b=1',
    )
  })
})
