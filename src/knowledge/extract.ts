/**
 * Text of a dropped document. Text and Markdown are kept as written (Markdown's marks are words
 * a search can use); HTML becomes its text: scripts, styles and tags dropped, entities decoded,
 * block ends turned into line breaks. Nothing here is ever rendered as HTML; the text is only
 * indexed and quoted. PDF is read by pdf.js, loaded only when a PDF arrives (pdfText.ts).
 */
export type DocumentKind = 'text' | 'markdown' | 'html' | 'pdf'

export function documentKind(name: string, mime = ''): DocumentKind | undefined {
  const lower = name.toLowerCase()
  if (lower.endsWith('.pdf') || mime === 'application/pdf') return 'pdf'
  if (/\.(html?|xhtml)$/.test(lower) || mime === 'text/html') return 'html'
  if (/\.(md|markdown|mdx)$/.test(lower) || mime === 'text/markdown') return 'markdown'
  if (/\.(txt|text|csv|tsv|json|log|rst|adoc)$/.test(lower) || mime.startsWith('text/')) return 'text'
  return undefined
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X'))
      return safeCodePoint(parseInt(body.slice(2), 16), whole)
    if (body.startsWith('#')) return safeCodePoint(parseInt(body.slice(1), 10), whole)
    return ENTITIES[body.toLowerCase()] ?? whole
  })
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback
}

export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr|\/section|\/article)\b[^>]*>/gi, '\n')
      .replace(/<[^>]*>/g, ' '),
  )
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** The searchable text of a text, Markdown or HTML document. */
export function documentText(kind: Exclude<DocumentKind, 'pdf'>, raw: string): string {
  return kind === 'html' ? htmlToText(raw) : raw
}
