import { describe, expect, it } from 'vitest'
import { createEventBatcher } from '../../src/app/runs/eventBatcher.ts'
import type { RunEvent } from '../../src/engine/index.ts'
import { createRunStore } from '../../src/store/runStore.ts'
import { ManualFrames } from './runHarness.ts'

const at = 1_000
const chunk = (
  nodeId: string,
  text: string,
  channel: 'output' | 'reasoning' | 'log' = 'output',
): RunEvent => ({
  type: 'nodeChunk',
  runId: 'r',
  at,
  nodeId,
  text,
  channel,
})

describe('event batcher', () => {
  it('applies 5,000 chunks that arrive within one frame as ONE store update', () => {
    const store = createRunStore()
    const frames = new ManualFrames()
    const batcher = createEventBatcher((events) => store.getState().actions.applyEvents(events), frames)
    let updates = 0
    store.subscribe(() => {
      updates += 1
    })
    batcher.push({ type: 'runStart', runId: 'r', at, flowId: 'f', nodeIds: ['llm', 'other'] })
    batcher.push({ type: 'nodeStart', runId: 'r', at, nodeId: 'llm', inputs: {} })
    const words: string[] = []
    for (let i = 0; i < 5_000; i += 1) {
      words.push(`w${i} `)
      batcher.push(chunk('llm', `w${i} `))
    }
    expect(updates).toBe(0)
    expect(frames.requested).toBe(1)
    // Merged while waiting: runStart, nodeStart and one chunk.
    expect(batcher.pending).toBe(3)
    frames.tick()
    expect(updates).toBe(1)
    const llm = store.getState().nodes['llm']
    expect(llm?.status).toBe('running')
    expect(llm?.consoleLines).toEqual([{ kind: 'output', text: words.join('') }])
    expect(store.getState().nodes['other']?.status).toBe('queued')
  })

  it('keeps each node in order and never merges across channels or alerts', () => {
    const applied: RunEvent[][] = []
    const frames = new ManualFrames()
    const batcher = createEventBatcher((events) => applied.push(events), frames)
    batcher.push(chunk('a', 'think ', 'reasoning'))
    batcher.push(chunk('b', 'B1 '))
    batcher.push(chunk('a', 'more', 'reasoning'))
    batcher.push(chunk('a', 'Answer'))
    batcher.push({
      type: 'guard',
      runId: 'r',
      at,
      nodeId: 'a',
      layer: 'loop',
      level: 'hint',
      message: 'hint line',
    })
    batcher.push(chunk('a', ' after'))
    batcher.push(chunk('b', 'B2'))
    frames.tick()
    expect(applied).toHaveLength(1)
    const summary = (applied[0] ?? []).map((e) =>
      e.type === 'nodeChunk' ? `${e.nodeId}:${e.channel}:${e.text}` : `${e.type}`,
    )
    expect(summary).toEqual([
      'a:reasoning:think more',
      'b:output:B1 B2',
      'a:output:Answer',
      'guard',
      'a:output: after',
    ])
  })

  it('never mutates the events it is given (the recorder keeps the same objects)', () => {
    const frames = new ManualFrames()
    const batcher = createEventBatcher(() => undefined, frames)
    const first = chunk('a', 'one ')
    batcher.push(first)
    batcher.push(chunk('a', 'two'))
    frames.tick()
    expect(first).toMatchObject({ text: 'one ' })
  })

  it('flush applies at once and a later frame has nothing left to do', () => {
    const applied: RunEvent[][] = []
    const frames = new ManualFrames()
    const batcher = createEventBatcher((events) => applied.push(events), frames)
    batcher.push(chunk('a', 'x'))
    batcher.flush()
    expect(applied).toHaveLength(1)
    frames.tick()
    expect(applied).toHaveLength(1)
    batcher.push(chunk('a', 'y'))
    batcher.dispose()
    frames.tick()
    expect(applied).toHaveLength(1)
  })

  it('keeps a sub-flow node’s chunks apart from the canvas node of the same id within a frame', () => {
    const frames = new ManualFrames()
    const applied: RunEvent[] = []
    const batcher = createEventBatcher((events) => applied.push(...events), frames)
    const place = { path: ['call'], nesting: [{ nodeId: 'call', kind: 'subflow' as const }] }
    const inner = (text: string): RunEvent => ({ ...chunk('q', text), ...place })
    batcher.push(chunk('q', 'top '))
    batcher.push(inner('inner '))
    batcher.push(chunk('q', 'again'))
    batcher.push(inner('more'))
    batcher.flush()
    expect(applied.map((e) => [e.path?.join() ?? '', e.type === 'nodeChunk' ? e.text : ''])).toEqual([
      ['', 'top again'],
      ['call', 'inner more'],
    ])
  })
})
