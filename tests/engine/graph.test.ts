import { describe, expect, it } from 'vitest'
import {
  ancestors,
  descendants,
  directUpstream,
  findCycles,
  topologicalSort,
  wouldCreateCycle,
} from '../../src/engine/index.ts'
import { flow } from '../support/flowBuilders.ts'

describe('graph helpers', () => {
  const diamond = flow()
    .node('a', 'x')
    .node('b', 'x')
    .node('c', 'x')
    .node('d', 'x')
    .node('lone', 'x')
    .edge('a', 'b')
    .edge('a', 'c')
    .edge('b', 'd')
    .edge('c', 'd')
    .build()

  it('orders nodes so every node comes after its upstream nodes, keeping document order for ties', () => {
    expect(topologicalSort(diamond)).toEqual({ order: ['a', 'lone', 'b', 'c', 'd'], cyclic: [] })
  })

  it('finds ancestors, descendants and direct upstream nodes', () => {
    expect([...ancestors(diamond, 'd')].sort()).toEqual(['a', 'b', 'c'])
    expect([...descendants(diamond, 'a')].sort()).toEqual(['b', 'c', 'd'])
    expect(directUpstream(diamond, 'd')).toEqual(['b', 'c'])
    expect(ancestors(diamond, 'lone').size).toBe(0)
  })

  it('names each cycle in edge order and reports self-loops', () => {
    const doc = flow()
      .node('a', 'x')
      .node('b', 'x')
      .node('c', 'x')
      .node('s', 'x')
      .node('z', 'x')
      .chain('z', 'a', 'b', 'c', 'a')
      .edge('s', 's')
      .build()
    expect(findCycles(doc)).toEqual(expect.arrayContaining([['a', 'b', 'c'], ['s']]))
    expect(findCycles(doc)).toHaveLength(2)
    expect(topologicalSort(doc).cyclic.sort()).toEqual(['a', 'b', 'c', 's'])
    expect(findCycles(diamond)).toEqual([])
  })

  it('handles a 5,000-node chain without overflowing the stack', () => {
    const builder = flow()
    const ids = Array.from({ length: 5000 }, (_, i) => `n${i}`)
    for (const id of ids) builder.node(id, 'x')
    builder.chain(...ids).edge('n4999', 'n0')
    const cycles = findCycles(builder.build())
    expect(cycles).toHaveLength(1)
    expect(cycles[0]).toHaveLength(5000)
  })

  it('tells the canvas when a new edge would close a loop', () => {
    expect(wouldCreateCycle(diamond, 'd', 'a')).toBe(true)
    expect(wouldCreateCycle(diamond, 'c', 'b')).toBe(false)
    expect(wouldCreateCycle(diamond, 'b', 'b')).toBe(true)
    expect(wouldCreateCycle(diamond, 'lone', 'a')).toBe(false)
  })
})
