import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script without types (it runs under node in `npm run lint`).
import { folderCycles } from '../../scripts/folderCycles.mjs'

type Cycle = { units: string[]; arrows: string[] }
const cyclesOf = (files: Record<string, string>, nested: string[] = []): Cycle[] =>
  folderCycles(new Map(Object.entries(files)), { root: 'src', nested })

describe('import cycles between folders', () => {
  it('finds a cycle between two folders, naming an import for each arrow', () => {
    const cycles = cyclesOf({
      'src/ui/Button.tsx': "import { services } from '../app/services.ts'",
      'src/app/services.ts': "import type { Store } from '../ui/store.ts'",
      'src/ui/store.ts': 'export type Store = number',
    })
    expect(cycles).toHaveLength(1)
    expect(cycles[0]?.units).toEqual(['app', 'ui'])
    expect(cycles[0]?.arrows).toEqual([
      'app -> ui: src/app/services.ts imports src/ui/store.ts',
      'ui -> app: src/ui/Button.tsx imports src/app/services.ts',
    ])
  })

  it('finds a longer cycle through dynamic imports and re-exports, not commented imports', () => {
    const cycles = cyclesOf({
      'src/a/x.ts': "export const load = () => import('../b/y.ts')",
      'src/b/y.ts': "export { z } from '../c/z.ts'",
      'src/c/z.ts': "// import '../a/x.ts'\nexport const z = 1",
    })
    expect(cycles).toEqual([])
    const closed = cyclesOf({
      'src/a/x.ts': "export const load = () => import('../b/y.ts')",
      'src/b/y.ts': "export { z } from '../c/z.ts'",
      'src/c/z.ts': "import '../a/x.ts'\nexport const z = 1",
    })
    expect(closed.map((c) => c.units)).toEqual([['a', 'b', 'c']])
  })

  it('checks the subfolders of nested folders, and leaves cycles inside one folder alone', () => {
    const files = {
      'src/app/core/createApp.ts': "import '../runs/install.ts'",
      'src/app/runs/install.ts': "import type { AppCore } from '../core/createApp.ts'",
      'src/ui/canvas/a.ts': "import './b.ts'",
      'src/ui/canvas/b.ts': "import './a.ts'",
    }
    expect(cyclesOf(files)).toEqual([])
    expect(cyclesOf(files, ['app']).map((c) => c.units)).toEqual([['app/core', 'app/runs']])
  })

  it('finds no cycle in src/ today', async () => {
    const fs = await import('node:fs')
    const path = await import('node:path')
    const files = new Map<string, string>()
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.posix.join(dir, entry.name)
        if (entry.isDirectory()) walk(file)
        else if (/\.(ts|tsx|mjs)$/.test(entry.name)) files.set(file, fs.readFileSync(file, 'utf8'))
      }
    }
    walk('src')
    expect(folderCycles(files, { root: 'src', nested: ['app'] })).toEqual([])
  })
})
