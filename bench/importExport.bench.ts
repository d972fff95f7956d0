/**
 * Workflow import/export bench (`npx tsx bench/importExport.bench.ts`, part of `npm run bench`).
 *
 * A 1,000-node workflow of every node type (about 1,500 edges, templates in every config):
 * 1. import = parseWorkflowText: JSON parse, envelope + node + config validation by each type's
 *    zod schema, graph checks (ids, edges, cycles); target median <= 300 ms;
 * 2. export = exportWorkflowText: secret redaction of every config + pretty JSON; target
 *    median <= 100 ms.
 * Baselines in the same run: JSON.parse and JSON.stringify of the same text, and a PatchCat
 * import of the same size, for scale (no target).
 *
 * Prints a table of medians and exits non-zero when a target fails.
 */
import type { FlowDocument, FlowEdge, FlowNode } from '../src/engine/index.ts'
import { getNodeDefinition } from '../src/nodes/registry.ts'
import { exportWorkflowText, parseWorkflowText } from '../src/storage/workflowFile.ts'

const NODES = 1_000
const WARMUP_ROUNDS = 3
const ROUNDS = 15
const TARGET_IMPORT_MS = 300
const TARGET_EXPORT_MS = 100
const TYPES = ['input', 'template', 'llm', 'code', 'http', 'output', 'note'] as const

function config(type: string, index: number): Record<string, unknown> {
  const base = getNodeDefinition(type)?.defaultConfig() as Record<string, unknown>
  const ref = `{{n${Math.max(0, index - 1)}.text}}`
  switch (type) {
    case 'input':
      return { ...base, values: { topic: `topic ${index}`, audience: 'engineers' } }
    case 'template':
      return { ...base, template: `Write about ${ref} for {{n0.audience}} (step ${index}).` }
    case 'llm':
      return { ...base, prompt: `Summarise ${ref}`, systemPrompt: 'Be brief.', temperature: 0.4 }
    case 'code':
      return { ...base, code: `return { n: ${index}, upstream: Object.keys(inputs) }` }
    case 'http':
      return {
        ...base,
        url: 'https://api.example.test/items',
        query: [{ key: 'q', value: ref }],
        headers: [{ key: 'Accept', value: 'application/json' }],
      }
    case 'output':
      return { ...base, values: { result: ref } }
    default:
      return { ...base, text: `Note ${index}: keep this flow tidy.` }
  }
}

function bigFlow(): FlowDocument {
  const nodes: FlowNode[] = []
  const edges: FlowEdge[] = []
  const wired = (i: number): string => (nodes[i]?.type === 'note' ? `n${i - 1}` : `n${i}`)
  for (let i = 0; i < NODES; i += 1) {
    const type = i === 0 ? 'input' : (TYPES[i % TYPES.length] as string)
    const position = { x: (i % 40) * 260, y: Math.floor(i / 40) * 180 }
    nodes.push({ id: `n${i}`, type, position, data: { label: `${type} ${i}`, config: config(type, i) } })
    if (i === 0 || type === 'note') continue
    edges.push({
      id: `e${i}a`,
      source: wired(i - 1),
      target: `n${i}`,
      sourceHandle: 'out',
      targetHandle: 'in',
    })
    const far = Math.floor(i / 2)
    if (i > 2 && i % 2 === 0 && wired(far) !== wired(i - 1)) {
      edges.push({
        id: `e${i}b`,
        source: wired(far),
        target: `n${i}`,
        sourceHandle: 'out',
        targetHandle: 'in',
      })
    }
  }
  return {
    metadata: {
      id: 'bench',
      name: 'Bench flow',
      description: '1,000 nodes',
      tags: ['bench'],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
    viewport: { x: 0, y: 0, zoom: 0.5 },
    nodes,
    edges,
  }
}

/** The same flow as a PatchCat file (prompt nodes, `data.inputs`, `promptText` references). */
function asPatchCat(doc: FlowDocument): string {
  const nodes = doc.nodes.map((n) => {
    const c = n.data.config
    if (n.type === 'template')
      return {
        id: n.id,
        type: 'prompt',
        position: n.position,
        data: { label: n.data.label, inputs: { template: c.template } },
      }
    if (n.type === 'input' || n.type === 'output')
      return { id: n.id, type: n.type, position: n.position, data: { label: n.data.label, inputs: c.values } }
    if (n.type === 'llm')
      return {
        id: n.id,
        type: 'llm',
        position: n.position,
        data: { label: n.data.label, config: { model: 'gpt-4o' }, inputs: { prompt: c.prompt } },
      }
    return {
      id: n.id,
      type: n.type === 'note' ? 'knowledge' : n.type,
      position: n.position,
      data: { label: n.data.label, config: c },
    }
  })
  return JSON.stringify({
    version: '1.0.0',
    metadata: doc.metadata,
    viewport: doc.viewport,
    nodes,
    edges: doc.edges,
  })
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

function measure(run: () => unknown): number {
  for (let i = 0; i < WARMUP_ROUNDS; i += 1) run()
  const times: number[] = []
  for (let i = 0; i < ROUNDS; i += 1) {
    const start = performance.now()
    run()
    times.push(performance.now() - start)
  }
  return median(times)
}

const doc = bigFlow()
const text = exportWorkflowText(doc)
const check = parseWorkflowText(text)
if (!check.ok) {
  console.error('The bench flow was refused:', check.problems.slice(0, 3))
  process.exit(2)
}
const patchcat = asPatchCat(doc)
const patchcatCheck = parseWorkflowText(patchcat)
if (!patchcatCheck.ok) {
  console.error('The PatchCat bench flow was refused:', patchcatCheck.problems.slice(0, 3))
  process.exit(2)
}

const rows: Array<{ name: string; ms: number; target?: number }> = [
  {
    name: `import ${NODES} nodes (parseWorkflowText)`,
    ms: measure(() => parseWorkflowText(text)),
    target: TARGET_IMPORT_MS,
  },
  {
    name: `export ${NODES} nodes (exportWorkflowText)`,
    ms: measure(() => exportWorkflowText(doc)),
    target: TARGET_EXPORT_MS,
  },
  { name: 'baseline JSON.parse of the same text', ms: measure(() => JSON.parse(text)) },
  { name: 'baseline JSON.stringify(doc, null, 2)', ms: measure(() => JSON.stringify(doc, null, 2)) },
  { name: `PatchCat import of ${NODES} nodes (no target)`, ms: measure(() => parseWorkflowText(patchcat)) },
]

const kb = (chars: number): string => `${(chars / 1024).toFixed(0)} KB`
console.log(
  `workflow: ${doc.nodes.length} nodes, ${doc.edges.length} edges, ${kb(text.length)} as Wardflow JSON, ${kb(patchcat.length)} as PatchCat JSON`,
)
console.log(`medians of ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up rounds`)
console.log('')
console.log(`${'measure'.padEnd(48)} ${'median ms'.padStart(10)} ${'target ms'.padStart(10)}  result`)
let failed = false
for (const row of rows) {
  const pass = row.target === undefined || row.ms <= row.target
  if (!pass) failed = true
  const target = row.target === undefined ? '-' : `<= ${row.target}`
  const result = row.target === undefined ? '' : pass ? 'PASS' : 'FAIL'
  console.log(`${row.name.padEnd(48)} ${row.ms.toFixed(1).padStart(10)} ${target.padStart(10)}  ${result}`)
}
console.log('')
console.log(failed ? 'FAIL' : 'PASS')
process.exit(failed ? 1 : 0)
