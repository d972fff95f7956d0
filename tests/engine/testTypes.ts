/**
 * Tiny node types for engine tests: `wait` sleeps on the run clock then outputs
 * `{ value, startedAt }`, `fail` throws, `text` renders its template, `hang` never settles.
 */
import {
  defineNodeType,
  FlowError,
  type EngineNodeType,
  type NodeRegistry,
  type ParseResult,
} from '../../src/engine/index.ts'

type Cfg = Record<string, unknown>

const anyObject = (raw: unknown): ParseResult<Cfg> =>
  typeof raw === 'object' && raw !== null
    ? { ok: true, value: raw as Cfg }
    : { ok: false, issues: [{ path: '', message: 'Expected an object' }] }

export const waitType: EngineNodeType = defineNodeType<Cfg>({
  type: 'wait',
  parseConfig: anyObject,
  outputs: () => ['value', 'startedAt'],
  async execute({ config, ctx, signal, emit }) {
    const startedAt = ctx.clock.now()
    emit.chunk('waiting')
    await ctx.clock.sleep(Number(config['ms'] ?? 0), signal)
    return { output: { value: config['value'] ?? null, startedAt } }
  },
})

export const failType: EngineNodeType = defineNodeType<Cfg>({
  type: 'fail',
  parseConfig: anyObject,
  async execute({ config, ctx, signal, node }) {
    await ctx.clock.sleep(Number(config['ms'] ?? 0), signal)
    throw new FlowError('HTTP_STATUS', String(config['message'] ?? 'boom'), { nodeId: node.id })
  },
})

export const textType: EngineNodeType = defineNodeType<Cfg>({
  type: 'text',
  parseConfig: (raw) => {
    const parsed = anyObject(raw)
    if (parsed.ok && typeof parsed.value['template'] !== 'string') {
      return { ok: false, issues: [{ path: 'template', message: 'Expected a string' }] }
    }
    return parsed
  },
  outputs: () => ['text'],
  check: (config) => (config['template'] === '' ? [{ path: 'template', message: 'Write a template.' }] : []),
  async execute({ config, resolve }) {
    return {
      output: { text: resolve(String(config['template']), 'template') },
      usage: { prompt: 1, completion: 2, total: 3, estimated: false },
    }
  },
})

/** Ignores the abort signal on purpose: Stop must not wait for it. */
export const hangType: EngineNodeType = defineNodeType<Cfg>({
  type: 'hang',
  parseConfig: anyObject,
  execute: () => new Promise(() => undefined),
})

export const noteType: EngineNodeType = defineNodeType<Cfg>({
  type: 'note',
  executable: false,
  parseConfig: anyObject,
  execute: async () => ({ output: {} }),
})

export const testRegistry: NodeRegistry = new Map(
  [waitType, failType, textType, hangType, noteType].map((t) => [t.type, t]),
)
