// A plain static file server, like GitHub Pages: files only, NO fallback to index.html, so a
// wrong URL is a real 404. Used by the e2e run of the Pages build under a sub-path.
//
//   node scripts/serve-static.mjs --dir dist-pages --base /wardflow/ [--port 4174] [--host 127.0.0.1]
//
// Serves <dir>/x at <base>x. A directory answers with its index.html; a directory URL without
// its trailing slash is redirected to it (as Pages does). Anything else is a 404.
import { resolve } from 'node:path'
import { createStaticServer } from './staticServer.mjs'

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback
}

const root = resolve(arg('dir', 'dist-pages'))
const base = arg('base', '/')
const port = Number(arg('port', '4174'))
const host = arg('host', '127.0.0.1')

const server = createStaticServer({ dir: root, base })
server.listen(port, host, () => {
  console.log(`Static site: ${root} at http://${host}:${port}${base} (no index.html fallback)`)
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)))
