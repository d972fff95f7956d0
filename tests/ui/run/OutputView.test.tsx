// @vitest-environment jsdom
import { render, waitFor } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '../../../src/i18n/index.ts'
import { OutputView } from '../../../src/ui/run/OutputView.tsx'
import { renderSafeMarkdown } from '../../../src/ui/run/safeMarkdown.ts'

const XSS =
  '# Title\n\n**bold** <img src=x onerror=alert(1)> <script>alert(2)</script> <a href="javascript:alert(3)">bad</a> [ok](https://example.com) <iframe src="https://evil.example"></iframe> <span onclick="alert(4)" style="color:red">s</span>'

beforeAll(async () => {
  await initI18n('en')
})

describe('output view', () => {
  it('shows outputs as text by default, HTML and all, without parsing it', () => {
    const { container } = render(<OutputView output={{ answer: XSS, n: { a: 1 } }} mode="text" />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('h1')).toBeNull()
    const texts = [...container.querySelectorAll('.wf-run-output__text')].map((p) => p.textContent)
    expect(texts).toEqual([XSS, '{\n  "a": 1\n}'])
  })

  it('renders Markdown through the sanitiser: formatting stays, anything that runs or fetches goes', async () => {
    const { container } = render(<OutputView output={{ answer: XSS }} mode="markdown" />)
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Title'))
    expect(container.querySelector('strong')?.textContent).toBe('bold')
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('script')).toBeNull()
    expect(container.querySelector('iframe')).toBeNull()
    expect(container.querySelector('[onerror]')).toBeNull()
    expect(container.querySelector('[onclick]')).toBeNull()
    expect(container.querySelector('[style]')).toBeNull()
    const links = [...container.querySelectorAll('a')]
    expect(links.map((a) => a.getAttribute('href'))).not.toContain('javascript:alert(3)')
    const ok = links.find((a) => a.textContent === 'ok')
    expect(ok).toHaveAttribute('href', 'https://example.com')
    expect(ok).toHaveAttribute('rel', 'noopener noreferrer nofollow')
    expect(ok).toHaveAttribute('target', '_blank')
  })

  it('leaves no link hook behind for other users of the sanitiser', async () => {
    const DOMPurify = (await import('dompurify')).default
    renderSafeMarkdown('[x](https://example.com)')
    expect(DOMPurify.sanitize('<a href="https://example.com">x</a>')).toBe(
      '<a href="https://example.com">x</a>',
    )
  })
})
