// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../src/ui/nodes/markdown.ts'
import { renderSafeMarkdown } from '../../src/ui/run/safeMarkdown.ts'

describe('sticky note Markdown', () => {
  it('keeps text formatting', () => {
    const html = renderMarkdown('## Plan\n\n- **fetch** data\n- `code`')
    expect(html).toContain('<h2>Plan</h2>')
    expect(html).toContain('<strong>fetch</strong>')
    expect(html).toContain('<code>code</code>')
  })

  it('drops scripts, handlers, images and anything else that could run or fetch', () => {
    const html = renderMarkdown(
      'hi <img src=x onerror="alert(1)"> <script>alert(2)</script> <iframe src="https://e.x"></iframe> ![a](https://e.x/a.png) <a href="javascript:alert(3)">x</a>',
    )
    expect(html).not.toMatch(/<img|<script|<iframe|onerror|javascript:/i)
    expect(html).toContain('hi')
  })

  it('opens links in a new tab without an opener', () => {
    const html = renderMarkdown('[docs](https://example.com/docs)')
    expect(html).toContain('href="https://example.com/docs"')
    expect(html).toContain('target="_blank"')
    expect(html).toContain('rel="noopener noreferrer"')
  })
})

describe('DOM clobbering', () => {
  const CLOBBER =
    '<a id="wardflow" name="services" href="https://example.com">x</a> <span id="defaultView">y</span> <div name="cookie">z</div> <p id="__proto__">p</p>'

  it('model-output and sticky-note Markdown keep no id or name attribute', () => {
    for (const render of [renderSafeMarkdown, renderMarkdown]) {
      const html = render(CLOBBER)
      expect(html).not.toMatch(/\s(id|name)=/i)
      const box = document.createElement('div')
      box.innerHTML = html
      expect(box.querySelectorAll('[id], [name]')).toHaveLength(0)
      expect(box.textContent).toContain('x')
    }
  })
})
