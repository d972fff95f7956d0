/**
 * Issue 23, item 6: a resolved field has a size cap. A 1 MB input referenced 100 times became a
 * 100 MB prompt that froze the tab; now the field fails with TEMPLATE_TOO_LARGE naming the node
 * and the field, before any text is joined.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  defaultProtection,
  FlowError,
  renderTemplate,
  runFlow,
  type NodeErrorEvent,
  type OutputLookup,
} from '../../src/engine/run.ts'
import { TEMPLATE_MAX_RESOLVED_CHARS, TEMPLATE_MAX_RESOLVED_RANGE_CHARS } from '../../src/defaults.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

function caught(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}

describe('the resolved-size cap of a field', () => {
  it('fails a 1 MB value referenced 100 times at once, naming the node and the field', () => {
    const big = 'x'.repeat(1_000_000)
    const lookup: OutputLookup = (id) => (id === 'input_1' ? { text: big } : undefined)
    const template = '{{input_1.text}}\n'.repeat(100)
    const started = performance.now()
    const error = caught(() =>
      renderTemplate(template, lookup, 'llm_1', { field: 'prompt', maxChars: TEMPLATE_MAX_RESOLVED_CHARS }),
    )
    // Summing lengths, not building 100 MB: far under the minute the tab froze for.
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(error).toBeInstanceOf(FlowError)
    const e = error as FlowError
    expect(e.code).toBe('TEMPLATE_TOO_LARGE')
    expect(e.nodeId).toBe('llm_1')
    expect(e.details).toMatchObject({
      field: 'prompt',
      chars: 100_000_100,
      limit: TEMPLATE_MAX_RESOLVED_CHARS,
    })
    expect(e.message).toContain('"prompt" of "llm_1"')
    expect(e.message).toContain('100,000,100 characters')
  })

  it('lets a field up to the cap through unchanged', () => {
    const lookup: OutputLookup = () => ({ v: 'abc' })
    expect(renderTemplate('[{{a.v}}{{a.v}}]', lookup, 'n', { field: 'template', maxChars: 8 })).toBe(
      '[abcabc]',
    )
    expect(() =>
      renderTemplate('[{{a.v}}{{a.v}}]!', lookup, 'n', { field: 'template', maxChars: 8 }),
    ).toThrow(/"template" of "n"/)
  })

  it('is a setting with a range, on by default in every run context', () => {
    expect(defaultProtection().templateMaxChars).toBe(TEMPLATE_MAX_RESOLVED_CHARS)
    expect(TEMPLATE_MAX_RESOLVED_CHARS).toBeGreaterThanOrEqual(TEMPLATE_MAX_RESOLVED_RANGE_CHARS.min)
    expect(TEMPLATE_MAX_RESOLVED_CHARS).toBeLessThanOrEqual(TEMPLATE_MAX_RESOLVED_RANGE_CHARS.max)
  })

  it('reaches the engine through the run context: the node fails, the run goes on', async () => {
    const doc = flow()
      .node('in', 'input', { values: { text: 'y'.repeat(500) } })
      .node('tpl', 'template', { template: '{{in.text}} {{in.text}} {{in.text}}' })
      .node('out', 'output', { values: { answer: '{{in.text}}' } })
      .edge('in', 'tpl')
      .edge('in', 'out')
      .build()
    const { ctx } = testContext({ protection: { ...defaultProtection(), templateMaxChars: 1_000 } })
    const events = await collect(runFlow(doc, engineRegistry, ctx))
    const failure = events.find((e): e is NodeErrorEvent => e.type === 'nodeError')
    expect(failure).toMatchObject({ nodeId: 'tpl', code: 'TEMPLATE_TOO_LARGE' })
    expect(failure?.message).toContain('"template" of "tpl"')
    expect(events.some((e) => e.type === 'nodeFinish' && e.nodeId === 'out')).toBe(true)
  })
})

/** Output values: short and long strings, numbers, objects (inserted as JSON text). */
const valueArb = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 200, maxLength: 2_000 }),
  fc.integer(),
  fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.string({ maxLength: 60 }), { maxKeys: 3 }),
)
const nodeIds = ['n1', 'n2', 'n3', 'ghost'] as const
const pieceArb = fc.oneof(
  fc.string({ maxLength: 30 }).map((s) => s.replace(/[{}]/g, '')),
  fc.record({
    node: fc.constantFrom(...nodeIds),
    key: fc.constantFrom('v', 'w', 'missing'),
    fallback: fc.option(
      fc.string({ maxLength: 20 }).map((s) => s.replace(/["\\{}]/g, '')),
      { nil: undefined },
    ),
    times: fc.integer({ min: 1, max: 30 }),
  }),
)

describe('property: no resolved field is ever larger than its cap', () => {
  it('holds for generated templates, inputs and caps, and the error names the field', () => {
    fc.assert(
      fc.property(
        fc.record({ v: valueArb, w: valueArb }),
        fc.record({ v: valueArb, w: valueArb }),
        fc.record({ v: valueArb, w: valueArb }),
        fc.array(pieceArb, { maxLength: 12 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.constantFrom('prompt', 'body', 'headers[0].value', 'values.answer', 'tools[2].url'),
        (o1, o2, o3, pieces, maxChars, field) => {
          const outputs: Record<string, Record<string, unknown>> = { n1: o1, n2: o2, n3: o3 }
          const lookup: OutputLookup = (id) => outputs[id]
          const template = pieces
            .map((p) => {
              if (typeof p === 'string') return p
              const fallback = p.fallback === undefined ? '' : ` | "${p.fallback}"`
              return `{{${p.node}.${p.key}${fallback}}}`.repeat(p.times)
            })
            .join('')
          const uncapped = renderTemplate(template, lookup, 'node_x')
          const error = caught(() => renderTemplate(template, lookup, 'node_x', { field, maxChars }))
          if (error === undefined) {
            // Under the cap, the cap changes nothing.
            expect(uncapped.length).toBeLessThanOrEqual(maxChars)
            expect(renderTemplate(template, lookup, 'node_x', { field, maxChars })).toBe(uncapped)
            return
          }
          expect(error).toBeInstanceOf(FlowError)
          const e = error as FlowError
          expect(e.code).toBe('TEMPLATE_TOO_LARGE')
          expect(uncapped.length).toBeGreaterThan(maxChars)
          expect(e.details).toMatchObject({ field, chars: uncapped.length, limit: maxChars })
          expect(e.message).toContain(`"${field}" of "node_x"`)
        },
      ),
      { numRuns: 300 },
    )
  })
})
