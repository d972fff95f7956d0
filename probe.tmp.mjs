import { readFileSync, readdirSync } from 'node:fs'
import { SourceMapConsumer } from 'source-map-js'
const dir = '/tmp/distmap/assets'
for (const f of readdirSync(dir).filter((x) => /^(start|index)-.*\.js$/.test(x))) {
  const code = readFileSync(`${dir}/${f}`, 'utf8')
  const map = new SourceMapConsumer(JSON.parse(readFileSync(`${dir}/${f}.map`, 'utf8')))
  const src = map.sources.find((s) => s.endsWith('engine/agent/loop.ts'))
  if (!src) continue
  const lines = code.split('\n')
  const pos = map.generatedPositionFor({ source: src, line: 60, column: 16 })
  console.log(f, pos, lines[pos.line - 1]?.slice(pos.column - 20, pos.column + 60))
  const pos2 = map.generatedPositionFor({ source: src, line: 64, column: 6 })
  console.log(f, pos2, lines[pos2.line - 1]?.slice(pos2.column - 20, pos2.column + 60))
}
