/**
 * The text of a PDF, through pdf.js (Mozilla's maintained PDF library). Loaded only when a PDF
 * is read: the library is ~400 KB gzip. Each page's text items are joined in reading order,
 * a line break where pdf.js marks the end of a line, a blank line between pages.
 */
export type PdfLoader = () => Promise<typeof import('pdfjs-dist')>

export async function pdfText(
  data: Uint8Array,
  load: PdfLoader = () => import('pdfjs-dist'),
): Promise<string> {
  const pdfjs = await load()
  // Text needs no font files; their absence is not worth a warning per PDF.
  const task = pdfjs.getDocument({
    data,
    useSystemFonts: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  })
  const document = await task.promise
  try {
    const pages: string[] = []
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number)
      const content = await page.getTextContent()
      let text = ''
      for (const item of content.items) {
        if (!('str' in item)) continue
        text += item.str
        text += item.hasEOL ? '\n' : ''
      }
      pages.push(text.trim())
      page.cleanup()
    }
    return pages.filter((p) => p !== '').join('\n\n')
  } finally {
    await task.destroy()
  }
}
