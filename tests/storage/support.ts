/** Helpers for storage tests: a fresh fake-indexeddb database per test and realistic flows. */
import { afterEach } from 'vitest'
import { openWardflowDb, type WardflowDb, type WardflowDbOptions } from '../../src/storage/db.ts'
import type { FlowDocument } from '../../src/engine/index.ts'
import type { RunRecord } from '../../src/storage/rows.ts'
import { getNodeDefinition } from '../../src/nodes/registry.ts'
import { flow } from '../support/flowBuilders.ts'

const opened: WardflowDb[] = []

afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close()
    await db.delete()
  }
})

/** A database with a unique name, deleted after the test. */
export async function freshDb(options: WardflowDbOptions & { name?: string } = {}): Promise<WardflowDb> {
  const db = await openWardflowDb(options.name ?? `t-${crypto.randomUUID()}`, options)
  opened.push(db)
  return db
}

/** Tracks a database opened by the test itself, so it is deleted afterwards. */
export function track(db: WardflowDb): WardflowDb {
  opened.push(db)
  return db
}

/** The registry's default config of `type`, with `patch` applied. */
export function config(type: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
  const definition = getNodeDefinition(type)
  if (definition === undefined) throw new Error(`no node type ${type} in the registry`)
  return { ...(definition.defaultConfig() as Record<string, unknown>), ...patch }
}

/** A small valid flow: input -> template -> llm -> output. */
export function sampleFlow(
  id = 'flow_a',
  name = 'Sample flow',
  updatedAt = '2026-01-01T00:00:00.000Z',
): FlowDocument {
  const doc = flow()
    .meta(id, name)
    .node('in_1', 'input', config('input', { values: { topic: 'otters' } }))
    .node('tpl_1', 'template', config('template', { template: 'Tell me about {{in_1.topic}}' }))
    .node('llm_1', 'llm', config('llm', { prompt: '{{tpl_1.text}}', temperature: 0.2 }))
    .node('out_1', 'output', config('output', { values: { answer: '{{llm_1.response}}' } }))
    .chain('in_1', 'tpl_1', 'llm_1', 'out_1')
    .build()
  return { ...doc, metadata: { ...doc.metadata, createdAt: updatedAt, updatedAt } }
}

/** A finished run record of `flowId` started at `startedAt`. */
export function sampleRun(flowId: string, startedAt: number, id = `run_${flowId}_${startedAt}`): RunRecord {
  return {
    id,
    flowId,
    startedAt,
    finishedAt: startedAt + 50,
    status: 'success',
    inputs: {},
    outputs: { out_1: { answer: 'otters are great' } },
    events: [
      { type: 'runStart', runId: id, at: startedAt, flowId, nodeIds: ['out_1'] },
      {
        type: 'runFinish',
        runId: id,
        at: startedAt + 50,
        status: 'success',
        usage: { prompt: 1, completion: 2, total: 3, estimated: false },
        durationMs: 50,
      },
    ],
    usage: { prompt: 1, completion: 2, total: 3, estimated: false },
    timings: { out_1: { startedAt, durationMs: 5 } },
  }
}

/** A DOMException like the one IndexedDB throws when the disk quota is exhausted. */
export function quotaError(): DOMException {
  return new DOMException('The quota has been exceeded.', 'QuotaExceededError')
}

/** Every node type, a placeholder, a note with a size, and handles. */
export function richFlow(): FlowDocument {
  const doc = flow()
    .meta('rich', 'Rich flow')
    .node('in', 'input', config('input', { values: { city: 'Oslo', days: '3' } }), 'City')
    .node('tpl', 'template', config('template', { template: 'Weather for {{in.city}}' }))
    .node(
      'web',
      'http',
      config('http', {
        url: 'https://example.test/w',
        query: [{ key: 'q', value: '{{in.city}}' }],
        headers: [{ key: 'Authorization', value: 'Bearer {{in.token}}' }],
      }),
    )
    .node('js', 'code', config('code', { code: 'return inputs.web.body', timeoutMs: 2000 }))
    .node(
      'ask',
      'llm',
      config('llm', { prompt: '{{tpl.text}} {{js.result}}', temperature: 1.1, stream: false }),
    )
    .node('out', 'output', config('output', { values: { answer: '{{ask.response}}' } }))
    .node('old', 'unsupported', {
      configVersion: 1,
      originalType: 'condition',
      original: { id: 'old', type: 'condition', data: { cases: [{ id: 'c1' }] } },
    })
    .node('memo', 'note', config('note', { text: '**Remember** the umbrella' }))
    .chain('in', 'tpl', 'ask', 'out')
    .edge('in', 'web')
    .edge('web', 'js')
    .edge('js', 'ask')
    .edge('ask', 'old')
    .build()
  const memo = doc.nodes.find((n) => n.id === 'memo')
  if (memo) memo.size = { width: 320, height: 160 }
  doc.viewport = { x: 12.5, y: -40, zoom: 0.8 }
  doc.metadata = { ...doc.metadata, description: 'All kinds', tags: ['demo', '天气'] }
  doc.edges.push({ id: 'e_plain', source: 'tpl', target: 'js', sourceHandle: null, targetHandle: null })
  return doc
}
