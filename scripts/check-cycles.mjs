// `npm run lint` runs this: an import cycle between folders of src/ (or between the areas of
// src/app/) fails it. A script rather than import-x/no-cycle: that rule works module by module
// (it would not see a folder cycle made of two unrelated files, and ignores type imports), and
// it is costly; this reads each file's imports once (~1 s for all of src/).
import fs from 'node:fs'
import path from 'node:path'
import { folderCycles } from './folderCycles.mjs'

const ROOT = 'src'
/** Folders whose subfolders must not form cycles either: the app's areas. */
const NESTED = ['app']

function sources(dir, out = new Map()) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.posix.join(dir, entry.name)
    if (entry.isDirectory()) sources(file, out)
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name)) out.set(file, fs.readFileSync(file, 'utf8'))
  }
  return out
}

const cycles = folderCycles(sources(ROOT), { root: ROOT, nested: NESTED })
if (cycles.length > 0) {
  for (const cycle of cycles) {
    console.error(`Import cycle between ${cycle.units.join(', ')}:`)
    for (const arrow of cycle.arrows) console.error(`  ${arrow}`)
  }
  console.error('Folders import one way only (docs/architecture.md, "Dependency rule").')
  process.exit(1)
}
console.log('No import cycle between folders of src/.')
