/**
 * The URL of an HTTP request (the HTTP node and the Agent's http tools). Besides full http(s)
 * URLs, a site-relative one (`./data/x.json`, `../x.json`) is accepted when the run knows the
 * address of the site the app is served from (RunContext.baseUrl): bundled templates read JSON
 * files the site itself serves, under any sub-path, without naming a host.
 */
import { FlowError } from '../../engine/index.ts'

/** True for `./x` and `../x`: the only relative forms accepted, so "example.com/x" stays an error. */
export function isSiteRelativeUrl(raw: string): boolean {
  return raw.startsWith('./') || raw.startsWith('../')
}

/** Parses `raw` (resolved against `baseUrl` when site-relative); throws HTTP_BAD_URL. */
export function resolveRequestUrl(raw: string, baseUrl: string | undefined, nodeId?: string): URL {
  if (isSiteRelativeUrl(raw) && (baseUrl === undefined || baseUrl === '')) {
    throw new FlowError(
      'HTTP_BAD_URL',
      `"${raw}" is relative to the site Wardflow is served from, so it only works in the web app. Here, write the full URL (https://host/path).`,
      { nodeId },
    )
  }
  let url: URL
  try {
    url = isSiteRelativeUrl(raw) ? new URL(raw, baseUrl) : new URL(raw)
  } catch {
    throw new FlowError('HTTP_BAD_URL', `"${raw}" is not a full URL. Write it as https://host/path.`, {
      nodeId,
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FlowError(
      'HTTP_BAD_URL',
      `Only http:// and https:// URLs can be requested, not ${url.protocol}//.`,
      { nodeId },
    )
  }
  return url
}
