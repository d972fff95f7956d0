import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script without types (npm run bench runs it under node).
import { benchmarksPage, KEPT_END, KEPT_START, keptSection } from '../../scripts/benchPage.mjs'

const run = {
  writtenAt: '2026-12-01T00:00:00.000Z',
  platform: 'linux',
  node: 'v20.20.2',
  sections: [
    { name: 'engine', ok: true, text: 'overhead 4.8 µs\n' },
    { name: 'browser', ok: false, text: 'open 3.1x' },
  ],
}

describe('docs/benchmarks.md as npm run bench writes it', () => {
  it('writes each bench as a section, marking a failed one', () => {
    const page: string = benchmarksPage(run)
    expect(page).toContain('## engine\n\n```\noverhead 4.8 µs\n```\n')
    expect(page).toContain('## browser (FAILED)\n\n```\nopen 3.1x\n```\n')
    expect(page).not.toContain(KEPT_START)
  })

  it('keeps the hand-kept section of the page it replaces, word for word', () => {
    const kept = `${KEPT_START}\n\n## Beside the tables\n\n49 of the day's 50 runs clean.\n\n${KEPT_END}`
    const previous = `# Benchmarks\n\n## engine\n\n\`\`\`\nold\n\`\`\`\n\n${kept}\n`
    const page: string = benchmarksPage({ ...run, previous })
    expect(page).not.toContain('old')
    expect(keptSection(page)).toBe(kept)
    expect(page.indexOf(KEPT_START)).toBeGreaterThan(page.indexOf('## browser'))
  })

  it('the page in docs/ has the section with the harness tallies', () => {
    const kept: string = keptSection(readFileSync('docs/benchmarks.md', 'utf8'))
    expect(kept).toContain('host steal')
    expect(kept).toContain('nice 10')
    expect(kept).toContain("the day's 50 runs")
  })
})
