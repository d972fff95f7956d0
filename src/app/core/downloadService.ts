/** Saving a text file to the person's downloads folder (browser only). */

export type Downloader = (fileName: string, text: string, type?: string) => void

/** Downloads `text` as `fileName` (JSON unless `type` says otherwise) through a temporary object URL and link. */
export const browserDownload: Downloader = (fileName, text, type = 'application/json') => {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked on the next task: Chromium has taken the blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
