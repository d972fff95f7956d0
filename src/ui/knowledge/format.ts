/** Sizes as the Knowledge screen shows them (B, KB, MB), in the UI language's number format. */
export function sizeText(bytes: number, language: string): string {
  const format = new Intl.NumberFormat(language, { maximumFractionDigits: 1 })
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${format.format(bytes / 1024)} KB`
  return `${format.format(bytes / 1024 / 1024)} MB`
}
