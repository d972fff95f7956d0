import { describe, expect, it } from 'vitest'
import { nodeDefinitions, getNodeDefinition, engineRegistry } from '../../src/nodes/registry.ts'
import { applyRunInputs } from '../../src/nodes/input/index.ts'
import { flow, ofType, testContext } from '../support/flowBuilders.ts'
import { outputOf, consoleOf, runWithClock } from './runNodes.ts'

describe('node definitions', () => {
  it('lists every node type once, each with a default config its own schema accepts', () => {
    expect(nodeDefinitions.map((d) => d.type)).toEqual([
      'input',
      'template',
      'llm',
      'agent',
      'code',
      'http',
      'condition',
      'merge',
      'subflow',
      'loop',
      'knowledge',
      'output',
      'note',
      'unsupported',
    ])
    for (const definition of nodeDefinitions) {
      const config = definition.defaultConfig()
      expect(definition.schema.parse(config)).toEqual(config)
      expect(definition.engine.parseConfig(config)).toEqual({ ok: true, value: config })
      expect(definition.labelKey).toBe(`nodes:${definition.type}.label`)
      expect(typeof definition.summary(config)).toBe('string')
      expect((config as { configVersion: number }).configVersion).toBe(definition.configVersion)
    }
    expect(getNodeDefinition('llm')?.engine).toBe(engineRegistry.get('llm'))
    expect(getNodeDefinition('nope')).toBeUndefined()
  })

  it('fills defaults for settings a hand-written workflow leaves out', () => {
    const parsed = getNodeDefinition('llm')?.engine.parseConfig({ prompt: 'Hi' })
    expect(parsed).toEqual({
      ok: true,
      value: expect.objectContaining({
        configVersion: 1,
        prompt: 'Hi',
        temperature: 0.7,
        maxTokens: 1024,
        stream: true,
        provider: '',
      }),
    })
  })

  it('refuses out-of-range numbers instead of clamping them', () => {
    const parsed = getNodeDefinition('http')?.engine.parseConfig({ url: 'https://x', timeoutMs: 10 })
    expect(parsed).toMatchObject({ ok: false, issues: [{ path: 'timeoutMs' }] })
  })

  it('keeps notes and unsupported placeholders out of the run and without handles for notes', () => {
    expect(getNodeDefinition('note')?.engine.executable).toBe(false)
    expect(getNodeDefinition('note')?.engine.ports({})).toEqual({ inputs: [], outputs: [] })
    expect(getNodeDefinition('unsupported')?.engine.executable).toBe(false)
    expect(
      getNodeDefinition('unsupported')?.summary({ configVersion: 1, originalType: 'loop', original: {} }),
    ).toBe('loop')
  })
})

describe('input node', () => {
  it('lets a bare key override every input node with that key and nodeId.key override one node', () => {
    expect(
      applyRunInputs('in1', { q: 'a', other: 'b' }, { q: 'Q!', 'in1.other': 'O!', 'in2.q': 'no' }),
    ).toEqual({ q: 'Q!', other: 'O!' })
    expect(applyRunInputs('in2', { q: 'a' }, { q: 'Q!', 'in2.q': 'mine' })).toEqual({ q: 'mine' })
    expect(applyRunInputs('in1', { q: 'a' }, { unrelated: 'x' })).toEqual({ q: 'a' })
  })

  it('outputs its values, with run inputs applied, for templates downstream', async () => {
    const doc = flow()
      .node('in', 'input', { values: { name: 'Ada', city: 'Paris' } })
      .node('t', 'template', { template: '{{in.name}} lives in {{in.city}}.' })
      .node('out', 'output', { values: { sentence: '{{t.text}}', shout: '{{t.text}}!' } })
      .chain('in', 't', 'out')
      .build()
    const { ctx, clock } = testContext({ inputs: { city: 'Rome' } })
    const events = await runWithClock(doc, ctx, clock)
    expect(outputOf(events, 'in')).toEqual({ name: 'Ada', city: 'Rome' })
    expect(outputOf(events, 't')).toEqual({ text: 'Ada lives in Rome.' })
    expect(outputOf(events, 'out')).toEqual({ sentence: 'Ada lives in Rome.', shout: 'Ada lives in Rome.!' })
    expect(consoleOf(events, 'out')).toBe('sentence: Ada lives in Rome.\nshout: Ada lives in Rome.!')
    expect(ofType(events, 'runFinish')[0]?.status).toBe('success')
  })

  it('refuses value names that templates could not reach', () => {
    const input = getNodeDefinition('input')?.engine
    expect(input?.parseConfig({ values: { 'a.b': 'x' } }).ok).toBe(false)
    expect(input?.parseConfig({ values: { 'has space': 'x' } }).ok).toBe(false)
    // zod drops a `__proto__` key outright, so it can never become an output field.
    const sneaky = input?.parseConfig(JSON.parse('{"values":{"__proto__":"y"}}'))
    expect(sneaky?.ok && Object.hasOwn((sneaky.value as { values: object }).values, '__proto__')).toBe(false)
    expect(input?.parseConfig({ values: { 'dash-ok_1': 'x' } }).ok).toBe(true)
  })
})
