import { readFileSync, readdirSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { SourceMapConsumer } from 'source-map-js'
const err = readFileSync('/tmp/bundle.err', 'utf8')
const line = err.split('\n').find((l) => l.startsWith('JS requested'))
const names = line.split(': ')[1].split(', ').map((f) => f.replace('assets/', ''))
const dir = process.argv[3] ?? '/tmp/distmap/assets'
const files = readdirSync(dir)
const per = new Map()
let total = 0
for (const n of names) {
  const f = files.find((x) => x === n)
  if (!f) { console.log('missing', n); continue }
  const code = readFileSync(`${dir}/${f}`, 'utf8')
  const gz = gzipSync(code).length
  total += gz
  let mapText; try { mapText = readFileSync(`${dir}/${f}.map`, 'utf8') } catch { per.set(n, (per.get(n) ?? 0) + gz); continue }
  const map = new SourceMapConsumer(JSON.parse(mapText))
  const lines = code.split('\n')
  const bytes = new Map()
  let prev = null
  map.eachMapping((m) => {
    if (prev) {
      const len = prev.l === m.generatedLine ? m.generatedColumn - prev.c : (lines[prev.l - 1]?.length ?? 0) - prev.c
      bytes.set(prev.s, (bytes.get(prev.s) ?? 0) + Math.max(0, len))
    }
    prev = { l: m.generatedLine, c: m.generatedColumn, s: m.source ?? '?' }
  })
  for (const [s, b] of bytes) per.set(s, (per.get(s) ?? 0) + (b / code.length) * gz)
}
const rows = [...per].sort((a, b) => b[1] - a[1])
console.log('total gzip', (total / 1000).toFixed(1))
for (const [s, g] of rows.slice(0, Number(process.argv[2] ?? 80))) console.log((g / 1000).toFixed(2).padStart(7), s.replace(/.*node_modules\//, 'nm/').replace(/^(\.\.\/)+/, '').replace('work/main/',''))
