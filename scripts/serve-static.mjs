// A plain static file server, like GitHub Pages: files only, NO fallback to index.html, so a
// wrong URL is a real 404. Used by the e2e run of the Pages build under a sub-path.
//
//   node scripts/serve-static.mjs --dir dist-pages --base /wardflow/ [--port 4174] [--host 127.0.0.1]
//
// Serves <dir>/x at <base>x. A directory answers with its index.html; a directory URL without
// its trailing slash is redirected to it (as Pages does). Anything else is a 404.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback
}

const root = resolve(arg('dir', 'dist-pages'))
const base = `/${arg('base', '/').replace(/^\/+|\/+$/g, '')}/`.replace(/\/+/g, '/')
const port = Number(arg('port', '4174'))
const host = arg('host', '127.0.0.1')

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

async function fileStat(path) {
  try {
    return await stat(path)
  } catch {
    return null
  }
}

function notFound(res) {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
  res.end('404 Not Found\n')
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' })
    res.end()
    return
  }
  let path
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname)
  } catch {
    return notFound(res)
  }
  if (`${path}/` === base) {
    res.writeHead(301, { Location: base })
    res.end()
    return
  }
  if (!path.startsWith(base)) return notFound(res)
  let file = resolve(join(root, path.slice(base.length)))
  if (file !== root && !file.startsWith(root + sep)) return notFound(res)
  let info = await fileStat(file)
  if (info?.isDirectory()) {
    if (!path.endsWith('/')) {
      res.writeHead(301, { Location: `${path}/` })
      res.end()
      return
    }
    file = join(file, 'index.html')
    info = await fileStat(file)
  }
  if (!info?.isFile()) return notFound(res)
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': 'no-cache',
  })
  if (req.method === 'HEAD') return res.end()
  createReadStream(file).pipe(res)
})

server.listen(port, host, () => {
  console.log(`Static site: ${root} at http://${host}:${port}${base} (no index.html fallback)`)
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)))
