// The text of docs/benchmarks.md: the tables `npm run bench` just measured, then the section
// kept by hand (what one run cannot show: runs of other days, the machine's load, why a setting
// was chosen), carried over from the page as it was.

export const KEPT_START =
  '<!-- kept by hand: `npm run bench` rewrites the tables above and keeps this section as it is -->'
export const KEPT_END = '<!-- end of the section kept by hand -->'

/** The hand-kept section of a page (markers included), or '' when it has none. */
export function keptSection(page) {
  const start = page.indexOf(KEPT_START)
  const end = page.indexOf(KEPT_END, start)
  if (start < 0 || end < 0) return ''
  return page.slice(start, end + KEPT_END.length)
}

/**
 * The whole page. `sections` are the benches' outputs ({ name, ok, text }); `previous` is the
 * page before this run (its hand-kept section survives), '' when there was none.
 */
export function benchmarksPage({ writtenAt, platform, node, sections, previous = '' }) {
  const header =
    `# Benchmarks\n\nWritten by \`npm run bench\` on ${writtenAt} (${platform}, Node ${node}). ` +
    'These 2-core machines are noisy, so every target is a ratio against a baseline measured in ' +
    'the same run, or a generous absolute bound.\n\n'
  const tables = sections
    .map(({ name, ok, text }) => `## ${name}${ok ? '' : ' (FAILED)'}\n\n\`\`\`\n${text.trim()}\n\`\`\`\n`)
    .join('\n')
  const kept = keptSection(previous)
  return header + tables + (kept === '' ? '' : `\n${kept}\n`)
}
