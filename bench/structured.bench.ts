/**
 * Structured-output bench (`npx tsx bench/structured.bench.ts`, part of `npm run bench`): checking
 * a 100 KB model reply against its output schema, as the node does (parse the text, validate the
 * value through the validator port's library), target <= 2 ms p50; beside it JSON.parse alone,
 * the floor. Prints a table and exits non-zero when the target fails.
 */
import { parseJsonReply } from '../src/engine/run.ts'
import { loadSchemaLibrary, validateWith } from '../src/platform/schemaValidator.ts'

const TARGET_P50_MS = 2
const TARGET_BYTES = 100_000
const ROUNDS = 101

/** CPU time of this process in ms: not inflated by waiting for a core on a shared machine. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

const schema = {
  type: 'object',
  properties: {
    customer: { type: 'string', minLength: 1 },
    orders: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: '^ord_[0-9]+$' },
          status: { enum: ['open', 'shipped', 'refunded'] },
          total: { type: 'number', minimum: 0 },
          urgent: { type: 'boolean' },
          lines: {
            type: 'array',
            items: {
              type: 'object',
              properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
              required: ['sku', 'qty'],
              additionalProperties: false,
            },
          },
          note: { type: 'string', maxLength: 200 },
        },
        required: ['id', 'status', 'total', 'urgent', 'lines', 'note'],
        additionalProperties: false,
      },
    },
  },
  required: ['customer', 'orders'],
  additionalProperties: false,
}

const statuses = ['open', 'shipped', 'refunded'] as const
const orders: unknown[] = []
let text = ''
for (let i = 0; text.length < TARGET_BYTES; i++) {
  orders.push({
    id: `ord_${1000 + i}`,
    status: statuses[i % 3],
    total: (i * 7.31) % 500,
    urgent: i % 5 === 0,
    lines: [
      { sku: `SKU-${i}-A`, qty: 1 + (i % 4) },
      { sku: `SKU-${i}-B`, qty: 2 },
    ],
    note: 'Customer asked for gift wrapping and a delivery before the weekend.',
  })
  text = JSON.stringify({ customer: 'Dana Whitfield', orders })
}

const lib = await loadSchemaLibrary()
const check = (value: unknown): string[] =>
  validateWith(lib, { value, schema, root: 'data', maxProblems: 10, lenient: false })

function parseAndValidate(): number {
  const parsed = parseJsonReply(text)
  if (!parsed.ok) throw new Error('the bench reply must parse')
  return check(parsed.value).length
}
function parseOnly(): number {
  return (JSON.parse(text) as { orders: unknown[] }).orders.length
}

if (parseAndValidate() !== 0) throw new Error('the bench reply must fit its schema')
let sink = 0
for (let i = 0; i < 30; i++) sink += parseAndValidate() + parseOnly() // warm-up / JIT
const samples: number[][] = [[], []]
for (let round = 0; round < ROUNDS; round++) {
  for (const [index, fn] of [parseAndValidate, parseOnly].entries()) {
    const start = cpuMs()
    sink += fn()
    samples[index]?.push(cpuMs() - start)
  }
}
const [p50, floor] = samples.map(
  (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] as number,
) as [number, number]
const pass = p50 <= TARGET_P50_MS
const kb = (text.length / 1000).toFixed(0)
const header = ['measure', 'median', 'ratio / baseline', 'target', 'result']
const row = [
  `structured output, parse + validate ${kb} KB (${orders.length} orders)`,
  `${p50.toFixed(2)} ms`,
  `x${(p50 / floor).toFixed(1)} of JSON.parse alone (${floor.toFixed(2)} ms)`,
  `<= ${TARGET_P50_MS} ms`,
  pass ? 'PASS' : 'FAIL',
]
const widths = header.map((h, col) => Math.max(h.length, (row[col] as string).length))
for (const line of [header, row])
  console.log(
    line
      .map((cell, col) => cell.padEnd(widths[col] as number))
      .join('  ')
      .trimEnd(),
  )
console.log(
  `(medians of ${ROUNDS} rounds of CPU time; Node ${process.version}; sink ${sink >= 0 ? 'ok' : '0'})`,
)
process.exit(pass ? 0 : 1)
