/**
 * Markdown -> sanitised HTML for sticky notes. Loaded on demand (marked + DOMPurify stay out of
 * the first-paint bundle); the output passes DOMPurify, never raw.
 */
import { marked } from 'marked'
import DOMPurify from 'dompurify'

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true })
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } })
}
