/**
 * The absolute URL of the site the app is served from, ending with '/': the folder of
 * index.html, whatever the sub-path (`/`, `/wardflow/`) and whether the build used an absolute
 * or a relative (`./`) base. Bundled files (templates/, data/) live under it.
 */
export function siteUrl(): string {
  const base = import.meta.env.BASE_URL || './'
  const page = typeof document === 'undefined' ? 'http://localhost/' : document.baseURI
  return new URL(base, page).href
}
