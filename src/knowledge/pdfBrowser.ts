/**
 * pdf.js for the page, loaded only when a PDF is dropped: the library with its own worker (which
 * parses the PDF off the page's thread), the worker's URL resolved by Vite like every asset.
 */
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { pdfText } from './pdfText.ts'

export function browserPdfText(data: Uint8Array): Promise<string> {
  return pdfText(data, async () => {
    const pdfjs = await import('pdfjs-dist')
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl
    return pdfjs
  })
}
