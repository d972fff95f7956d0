/** Downloads and uploads the way a person does them: the browser's download, a chosen file. */
import { readFile } from 'node:fs/promises'
import type { Download, Page } from '@playwright/test'

export interface DownloadedFile {
  name: string
  text: string
}

/** Runs `action` (a click) and returns the file it downloaded. */
export async function downloadOf(page: Page, action: () => Promise<void>): Promise<DownloadedFile> {
  const [download] = await Promise.all([page.waitForEvent('download'), action()])
  return readDownload(download)
}

export async function readDownload(download: Download): Promise<DownloadedFile> {
  const path = await download.path()
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') }
}

/** A file for `setInputFiles`. */
export function jsonFile(name: string, content: unknown): { name: string; mimeType: string; buffer: Buffer } {
  const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2)
  return { name, mimeType: 'application/json', buffer: Buffer.from(text, 'utf8') }
}
