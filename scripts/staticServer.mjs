// The static file server behind scripts/serve-static.mjs (the e2e run of the Pages build) and
// the browser bench (bench/browser/server.mjs): files only, like GitHub Pages.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'

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

/**
 * A plain static file server (no fallback to index.html: a wrong URL is a real 404) serving
 * `<dir>/x` at `<base>x`. A directory answers with its index.html; a directory URL without its
 * trailing slash is redirected to it, as GitHub Pages does. Not listening yet: call `listen`.
 */
export function createStaticServer({ dir, base = '/', cacheControl = 'no-cache' }) {
  const root = resolve(dir)
  const prefix = `/${base.replace(/^\/+|\/+$/g, '')}/`.replace(/\/+/g, '/')
  return createServer(async (req, res) => {
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
    if (`${path}/` === prefix) {
      res.writeHead(301, { Location: prefix })
      res.end()
      return
    }
    if (!path.startsWith(prefix)) return notFound(res)
    let file = resolve(join(root, path.slice(prefix.length)))
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
      'Cache-Control': cacheControl,
    })
    if (req.method === 'HEAD') return res.end()
    createReadStream(file).pipe(res)
  })
}
