import { describe, expect, it } from 'vitest'
import {
  NODE_CONSOLE_BOX_PX,
  NODE_CONSOLE_CLEARANCE_PX,
  NODE_CONSOLE_MIN_BOX_PX,
  NODE_CONSOLE_TOGGLE_PX,
  NODE_WIDTH_PX,
} from '../../../src/defaults.ts'
import type { FlowNode } from '../../../src/engine/index.ts'
import { consoleBoxPx, roomBelowPx } from '../../../src/ui/nodes/consoleRoom.ts'

const node = (id: string, x: number, y: number): FlowNode => ({
  id,
  type: 'llm',
  position: { x, y },
  data: { label: id, config: {} },
})

describe('roomBelowPx', () => {
  it('is the distance down to the nearest node below that shares some width', () => {
    const nodes = [node('a', 0, 0), node('far', 10, 400), node('near', 100, 150), node('side', 300, 50)]
    expect(roomBelowPx(nodes, {}, 'a')).toBe(150)
  })

  it('ignores nodes beside it, above it, and itself; unbounded when nothing is below', () => {
    const nodes = [node('a', 0, 100), node('above', 0, 20), node('right', NODE_WIDTH_PX, 200)]
    expect(roomBelowPx(nodes, {}, 'a')).toBe(Infinity)
    expect(roomBelowPx(nodes, {}, 'missing')).toBe(Infinity)
  })

  it('reads widths as React Flow measured them, and a node level with it leaves no room', () => {
    const nodes = [node('a', 0, 0), node('b', 300, 0)]
    expect(roomBelowPx(nodes, {}, 'a')).toBe(Infinity)
    expect(roomBelowPx(nodes, { a: { width: 320, height: 80 } }, 'a')).toBe(0)
  })
})

describe('consoleBoxPx', () => {
  const chrome = NODE_CONSOLE_TOGGLE_PX + NODE_CONSOLE_CLEARANCE_PX
  it('is the full box with room for it', () => {
    expect(consoleBoxPx(Infinity, 96)).toBe(NODE_CONSOLE_BOX_PX)
    expect(consoleBoxPx(96 + chrome + NODE_CONSOLE_BOX_PX, 96)).toBe(NODE_CONSOLE_BOX_PX)
  })
  it('shrinks to the room there is, down to two readable lines, then docks', () => {
    expect(consoleBoxPx(96 + chrome + 80.5, 96)).toBe(80)
    expect(consoleBoxPx(96 + chrome + NODE_CONSOLE_MIN_BOX_PX, 96)).toBe(NODE_CONSOLE_MIN_BOX_PX)
    expect(consoleBoxPx(96 + chrome + NODE_CONSOLE_MIN_BOX_PX - 1, 96)).toBeNull()
    expect(consoleBoxPx(40, 96)).toBeNull()
  })
})
