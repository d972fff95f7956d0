import { describe, expect, it } from 'vitest'
import { isBlocking, preflight, type Problem } from '../../src/engine/index.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { flow } from '../support/flowBuilders.ts'

const codes = (problems: Problem[]) => problems.map((p) => [p.code, p.nodeId ?? p.edgeId, p.severity])

describe('preflight', () => {
  it('finds nothing wrong with a sound flow', () => {
    const doc = flow()
      .node('in', 'input', { values: { q: 'hello' } })
      .node('t', 'template', { template: 'Say {{in.q}}' })
      .node('llm', 'llm', { prompt: '{{t.text}}' })
      .node('out', 'output', { values: { answer: '{{llm.response}}', tokens: '{{llm.usage.total}}' } })
      .node('note', 'note', { text: '# Hi' })
      .chain('in', 't', 'llm', 'out')
      .build()
    expect(preflight(doc, engineRegistry)).toEqual([])
  })

  it('names every node of a cycle and reports self-loops per edge', () => {
    const doc = flow()
      .node('a', 'template')
      .node('b', 'template')
      .node('c', 'template')
      .chain('a', 'b', 'c', 'a')
      .edge('c', 'c', 'loop')
      .build()
    const problems = preflight(doc, engineRegistry)
    expect(codes(problems)).toEqual([
      ['SELF_LOOP', 'c', 'error'],
      ['CYCLE', 'a', 'error'],
    ])
    expect(problems[1]?.params['cycle']).toBe('a → b → c → a')
    expect(problems[1]?.message).toContain('a → b → c → a')
    expect(problems.every(isBlocking)).toBe(true)
  })

  it('reports dangling edges, duplicate and invalid ids, unknown and unsupported types', () => {
    const doc = flow()
      .node('a', 'template')
      .node('a', 'template')
      .node('bad id!', 'template')
      .node('x', 'teleporter')
      .node('u', 'unsupported', { originalType: 'condition', original: { id: 'u' } }, 'Branch')
      .edge('a', 'ghost', 'e1')
      .build()
    const problems = preflight(doc, engineRegistry)
    expect(codes(problems)).toEqual([
      ['DUPLICATE_NODE_ID', 'a', 'error'],
      ['INVALID_NODE_ID', 'bad id!', 'error'],
      ['UNKNOWN_NODE_TYPE', 'x', 'error'],
      ['UNSUPPORTED_NODE', 'u', 'error'],
      ['DANGLING_EDGE', 'e1', 'error'],
    ])
    expect(problems[3]?.message).toContain('"Branch" (u) is a "condition" node')
    expect(problems[4]?.params['missing']).toBe('ghost')
  })

  it('warns about edges into notes, which never run', () => {
    const doc = flow().node('n', 'note').node('t', 'template', { template: 'x' }).edge('n', 't', 'e').build()
    expect(preflight(doc, engineRegistry).map((p) => [p.code, p.edgeId, p.nodeId, p.severity])).toEqual([
      ['DANGLING_EDGE', 'e', 'n', 'warning'],
    ])
  })

  it('reports config that does not parse, with the field path', () => {
    const doc = flow()
      .node('l', 'llm', { prompt: 'hi', temperature: 9 })
      .node('h', 'http', { url: 'https://x', retries: 'many' })
      .build()
    const problems = preflight(doc, engineRegistry)
    expect(problems.map((p) => [p.code, p.nodeId, p.params['path']])).toEqual([
      ['INVALID_CONFIG', 'l', 'temperature'],
      ['INVALID_CONFIG', 'h', 'retries'],
    ])
  })

  it('reports required settings left empty', () => {
    const doc = flow().node('l', 'llm', {}).node('h', 'http', {}).node('c', 'code', { code: '  ' }).build()
    expect(preflight(doc, engineRegistry).map((p) => [p.code, p.nodeId, p.params['path']])).toEqual([
      ['MISSING_CONFIG', 'l', 'prompt'],
      ['MISSING_CONFIG', 'h', 'url'],
      ['MISSING_CONFIG', 'c', 'code'],
    ])
  })

  it('reports references to unknown nodes, to nodes that are not upstream, and refused names', () => {
    const doc = flow()
      .node('in', 'input', { values: { q: 'x' } })
      .node('side', 'input', { values: { s: 'y' } })
      .node('t', 'template', {
        template: '{{ghost.a}} {{side.s}} {{in.__proto__}} {{t.text}} {{ghost.b | "ok"}}',
      })
      .edge('in', 't')
      .build()
    expect(preflight(doc, engineRegistry).map((p) => [p.code, p.params['ref'], p.severity])).toEqual([
      ['REF_UNKNOWN_NODE', '{{ghost.a}}', 'error'],
      ['REF_NOT_UPSTREAM', '{{side.s}}', 'error'],
      ['REF_FORBIDDEN_SEGMENT', '{{in.__proto__}}', 'error'],
      ['REF_NOT_UPSTREAM', '{{t.text}}', 'error'],
      ['REF_UNKNOWN_NODE', '{{ghost.b | "ok"}}', 'warning'],
    ])
  })

  it('accepts references through intermediate nodes and warns about unknown output fields', () => {
    const doc = flow()
      .node('in', 'input', { values: { q: 'x' } })
      .node('mid', 'template', { template: '{{in.q}}' })
      .node('h', 'http', {
        url: 'https://example.com/{{in.q}}',
        headers: [{ key: 'X', value: '{{mid.txt}}' }],
      })
      .chain('in', 'mid', 'h')
      .build()
    const problems = preflight(doc, engineRegistry)
    expect(codes(problems)).toEqual([['REF_UNKNOWN_FIELD', 'h', 'warning']])
    expect(problems[0]?.message).toContain('outputs text')
    expect(isBlocking(problems[0] as Problem)).toBe(false)
  })

  it('does not treat code as a template', () => {
    const doc = flow().node('c', 'code', { code: 'return "{{ghost.x}}"' }).build()
    expect(preflight(doc, engineRegistry)).toEqual([])
  })
})
