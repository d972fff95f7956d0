import { describe, expect, it } from 'vitest'
import { configAfterConnect, mainOutputField } from '../../src/nodes/wiring.ts'
import { getNodeDefinition } from '../../src/nodes/registry.ts'
import type { FlowNode } from '../../src/engine/index.ts'

/** A node of `type` with its real default config, changed by `patch`. */
function fresh(id: string, type: string, patch: Record<string, unknown> = {}): FlowNode {
  const definition = getNodeDefinition(type)
  if (!definition) throw new Error(`no node type ${type}`)
  const config = { ...(definition.defaultConfig() as Record<string, unknown>), ...patch }
  return { id, type, position: { x: 0, y: 0 }, data: { label: id, config } }
}

describe('what drawing a connection fills in', () => {
  it('offers each type’s main output', () => {
    const main = (type: string) => mainOutputField(type, fresh('n', type).data.config)
    expect(['input', 'template', 'llm', 'agent', 'code', 'http', 'output'].map(main)).toEqual([
      'question',
      'text',
      'response',
      'response',
      'result',
      'body',
      'result',
    ])
  })

  it('Input -> Template -> LLM -> Output: each empty field reads the node before it', () => {
    expect(configAfterConnect(fresh('in', 'input'), fresh('t', 'template'))).toMatchObject({
      template: '{{in.question}}',
    })
    expect(configAfterConnect(fresh('t', 'template'), fresh('l', 'llm'))).toMatchObject({
      prompt: '{{t.text}}',
    })
    expect(configAfterConnect(fresh('l', 'llm'), fresh('o', 'output'))).toMatchObject({
      values: { result: '{{l.response}}' },
    })
    expect(configAfterConnect(fresh('in', 'input'), fresh('a', 'agent'))).toMatchObject({
      prompt: '{{in.question}}',
    })
  })

  it('never replaces what a person typed, and fills only an empty output value', () => {
    expect(configAfterConnect(fresh('in', 'input'), fresh('l', 'llm', { prompt: 'Hi' }))).toBeNull()
    const output = fresh('o', 'output', { values: { answer: '{{x.response}}', notes: '' } })
    expect(configAfterConnect(fresh('c', 'code'), output)).toMatchObject({
      values: { answer: '{{x.response}}', notes: '{{c.result}}' },
    })
    const full = fresh('o', 'output', { values: { answer: '{{x.response}}' } })
    expect(configAfterConnect(fresh('c', 'code'), full)).toBeNull()
  })

  it('leaves code, HTTP and unknown targets alone, and skips keys a reference cannot name', () => {
    expect(configAfterConnect(fresh('in', 'input'), fresh('c', 'code'))).toBeNull()
    expect(configAfterConnect(fresh('in', 'input'), fresh('h', 'http'))).toBeNull()
    const spaced = fresh('in', 'input', { values: { 'user name': '' } })
    expect(configAfterConnect(spaced, fresh('t', 'template'))).toBeNull()
  })
})
