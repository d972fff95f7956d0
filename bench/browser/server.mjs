// The bench's static server: the same file server as the Pages e2e run (scripts/staticServer.mjs:
// no SPA fallback, no compression), with caching off, so the app and the bare page are served
// the same way, as GitHub Pages would, and every round fetches afresh.
import { createStaticServer } from '../../scripts/staticServer.mjs'

/** Serves `dir` on 127.0.0.1 (a free port); resolves to `{ url, close }`. */
export function serveStatic(dir) {
  const server = createStaticServer({ dir, cacheControl: 'no-store' })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) })
    })
  })
}
