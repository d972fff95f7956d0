/**
 * Model output as Markdown: marked turns it into HTML and DOMPurify removes everything that
 * could run or reach out. Stricter than the sticky notes' profile because this text comes from
 * a model, a tool or a server: no images or media (a reply must not make the page fetch a URL,
 * which could leak data to whoever wrote it), no forms, no styles, links open in a new tab
 * without an opener. Loaded on demand, so marked and DOMPurify stay out of the first paint.
 */
import DOMPurify from 'dompurify'
import { marked } from 'marked'

const FORBID_TAGS = [
  'img',
  'picture',
  'source',
  'video',
  'audio',
  'track',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'style',
  'link',
  'form',
  'input',
  'button',
  'textarea',
  'select',
]

function linkAttributes(node: Element): void {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank')
    node.setAttribute('rel', 'noopener noreferrer nofollow')
  }
}

/** Sanitised HTML for `text`; never the raw output of the Markdown parser. */
export function renderSafeMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true })
  // The hook lives only for this call: DOMPurify is shared with the sticky notes.
  DOMPurify.addHook('afterSanitizeAttributes', linkAttributes)
  try {
    return DOMPurify.sanitize(html, {
      USE_PROFILES: { html: true },
      FORBID_TAGS,
      // id and name would let a reply clobber globals (`window.x`, `document.x`) the page reads.
      FORBID_ATTR: ['style', 'srcset', 'background', 'poster', 'id', 'name'],
    })
  } finally {
    DOMPurify.removeHook('afterSanitizeAttributes', linkAttributes)
  }
}
