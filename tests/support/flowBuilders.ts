/**
 * Builders for flow documents and run contexts in tests:
 *
 *   const doc = flow().node('a', 'input', { values: { q: 'x' } }).node('b', 'template', { template: '{{a.q}}' })
 *     .edge('a', 'b').build()
 *   const { ctx, clock, provider } = testContext({ provider: scriptedProvider([{ text: 'hi' }]) })
 *   const events = await collect(runFlow(doc, registry, ctx))
 *
 * Configs are taken as given (no defaults are filled in), so a test states exactly what it runs.
 */
import { createSchemaValidator } from '../../src/platform/schemaValidator.ts'
import {
  defaultProtection,
  FlowError,
  type CodeRunner,
  type FetchLike,
  type FlowDocument,
  type FlowEdge,
  type FlowNode,
  type ProviderResolver,
  type RunContext,
  type RunEvent,
} from '../../src/engine/index.ts'
import { ManualClock } from './manualClock.ts'
import { ScriptedProvider } from './scriptedProvider.ts'
import { FakeCodeRunner } from './fakeCodeRunner.ts'

export class FlowBuilder {
  private readonly nodes: FlowNode[] = []
  private readonly edges: FlowEdge[] = []
  private id = 'flow_test'
  private name = 'Test flow'

  /** Sets the flow id (metadata.id) and optionally its name. */
  meta(id: string, name?: string): this {
    this.id = id
    if (name !== undefined) this.name = name
    return this
  }

  node(id: string, type: string, config: Record<string, unknown> = {}, label?: string): this {
    const index = this.nodes.length
    this.nodes.push({
      id,
      type,
      position: { x: (index % 10) * 240, y: Math.floor(index / 10) * 160 },
      data: { label: label ?? id, config },
    })
    return this
  }

  /** Adds an edge; its id defaults to `e_<source>_<target>`. */
  edge(source: string, target: string, id?: string): this {
    this.edges.push({
      id: id ?? `e_${source}_${target}`,
      source,
      target,
      sourceHandle: 'out',
      targetHandle: 'in',
    })
    return this
  }

  /** Adds edges a->b->c->... */
  chain(...ids: string[]): this {
    for (let i = 1; i < ids.length; i++) this.edge(ids[i - 1] as string, ids[i] as string)
    return this
  }

  build(): FlowDocument {
    return {
      metadata: {
        id: this.id,
        name: this.name,
        description: '',
        tags: [],
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
      viewport: { x: 0, y: 0, zoom: 1 },
      nodes: structuredClone(this.nodes),
      edges: structuredClone(this.edges),
    }
  }
}

export function flow(): FlowBuilder {
  return new FlowBuilder()
}

/** A fetch that fails loudly: tests that do HTTP pass the real fetch or their own. */
export const noFetch: FetchLike = async (input) => {
  throw new FlowError('INTERNAL', `Unexpected fetch in test: ${input}`)
}

export interface TestContextOptions extends Partial<Omit<RunContext, 'clock' | 'providers' | 'codeRunner'>> {
  clock?: ManualClock
  provider?: ProviderResolver
  codeRunner?: CodeRunner
}

export interface TestContext {
  ctx: RunContext
  clock: ManualClock
  controller: AbortController
  provider: ProviderResolver
  codeRunner: CodeRunner
}

/**
 * A RunContext made of fakes: manual clock, a scripted provider answering "ok", a code runner
 * that returns its bindings, no network, and a token estimate of one token per four characters.
 * Pass `signal` to use your own; otherwise abort through `controller`.
 */
export function testContext(options: TestContextOptions = {}): TestContext {
  const { clock: givenClock, provider: givenProvider, codeRunner: givenRunner, ...rest } = options
  const clock = givenClock ?? new ManualClock()
  const controller = new AbortController()
  const provider = givenProvider ?? new ScriptedProvider([{ text: 'ok' }], { clock })
  const codeRunner = givenRunner ?? new FakeCodeRunner((request) => request.bindings)
  const ctx: RunContext = {
    runId: 'run_test',
    clock,
    fetch: noFetch,
    codeRunner,
    providers: provider,
    estimateTokens: async (text) => Math.ceil(text.length / 4),
    validator: createSchemaValidator(),
    signal: controller.signal,
    protection: defaultProtection(),
    ...rest,
  }
  return { ctx, clock, controller, provider, codeRunner }
}

/** Drains an async iterable into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) out.push(item)
  return out
}

/** Events of one type, narrowed. */
export function ofType<K extends RunEvent['type']>(
  events: readonly RunEvent[],
  type: K,
): Array<Extract<RunEvent, { type: K }>> {
  return events.filter((e): e is Extract<RunEvent, { type: K }> => e.type === type)
}
