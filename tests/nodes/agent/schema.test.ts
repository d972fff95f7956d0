import { describe, expect, it } from 'vitest'
import {
  AGENT_MAX_ITERATIONS_RANGE,
  LOOP_TRIP_AT_RANGE,
  SANDBOX_TIMEOUT_RANGE_MS,
  TOOL_TIMEOUT_RANGE_MS,
} from '../../../src/defaults.ts'
import { agentNode, checkAgentConfig } from '../../../src/nodes/agent/index.ts'
import { agentConfigSchema, defaultAgentConfig } from '../../../src/nodes/agent/schema.ts'

const parse = (config: Record<string, unknown>) =>
  agentNode.engine.parseConfig({ ...defaultAgentConfig(), ...config })
const codeTool = {
  name: 'lookup',
  description: 'Look up',
  parameters: { type: 'object' },
  kind: 'code',
  code: 'return 1',
}

describe('agent config schema', () => {
  it('accepts the default config, which inherits every protection setting', () => {
    const config = defaultAgentConfig()
    expect(agentConfigSchema.parse(config)).toEqual(config)
    expect(config).not.toHaveProperty('maxIterations')
    expect(config).not.toHaveProperty('loopDetectionThreshold')
  })

  it('fills in what an imported config leaves out', () => {
    const parsed = agentConfigSchema.parse({ prompt: 'hi', tools: [{ name: 't', kind: 'code', code: 'x' }] })
    expect(parsed.tools[0]).toMatchObject({ description: '', parameters: { type: 'object', properties: {} } })
    expect(parsed.provider).toBe('')
  })

  it.each([
    ['maxIterations', AGENT_MAX_ITERATIONS_RANGE.min - 1],
    ['maxIterations', AGENT_MAX_ITERATIONS_RANGE.max + 1],
    ['maxIterations', 2.5],
    ['loopDetectionThreshold', LOOP_TRIP_AT_RANGE.min - 1],
    ['loopDetectionThreshold', LOOP_TRIP_AT_RANGE.max + 1],
    ['maxTokenBudget', -1],
    ['sandboxTimeoutMs', SANDBOX_TIMEOUT_RANGE_MS.max + 1],
    ['toolTimeoutMs', TOOL_TIMEOUT_RANGE_MS.min - 1],
  ])('refuses %s = %s with a message naming the range, never clamping', (key, value) => {
    const result = parse({ [key]: value })
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.issues[0]?.path).toBe(key)
      expect(result.issues[0]?.message).toMatch(/^Must be a (whole )?number from \d+ to \d+\.$/)
    }
  })

  it('accepts values at both ends of each range, and empty (null) to inherit', () => {
    for (const value of [LOOP_TRIP_AT_RANGE.min, LOOP_TRIP_AT_RANGE.max, null]) {
      expect(parse({ loopDetectionThreshold: value }).ok).toBe(true)
    }
    expect(parse({ maxIterations: AGENT_MAX_ITERATIONS_RANGE.max, maxTokenBudget: 0 }).ok).toBe(true)
  })

  it('refuses two tools with one name, names a model would reject, and non-object parameter schemas', () => {
    const dup = parse({ tools: [codeTool, codeTool] })
    expect(dup.ok === false && dup.issues[0]).toMatchObject({
      path: 'tools[1].name',
      message: 'Two tools are named "lookup".',
    })
    expect(parse({ tools: [{ ...codeTool, name: 'look up!' }] }).ok).toBe(false)
    const params = parse({ tools: [{ ...codeTool, parameters: { type: 'string' } }] })
    expect(params.ok === false && params.issues[0]?.path).toBe('tools[0].parameters')
    expect(parse({ tools: [{ ...codeTool, kind: 'python' }] }).ok).toBe(false)
  })

  it('reads http methods in any case', () => {
    const result = parse({ tools: [{ name: 'h', kind: 'http', url: 'https://x.test', method: 'get' }] })
    expect(result.ok && (result.value as { tools: Array<{ method: string }> }).tools[0]?.method).toBe('GET')
  })
})

describe('agent config check', () => {
  it('asks for a prompt and for what each tool kind needs', () => {
    const config = agentConfigSchema.parse({
      prompt: ' ',
      tools: [
        { name: '', kind: 'code', code: 'return 1' },
        { name: 'c', kind: 'code' },
        { name: 'h', kind: 'http', url: '' },
        { name: 'n', kind: 'node' },
      ],
    })
    expect(checkAgentConfig(config).map((i) => i.path)).toEqual([
      'prompt',
      'tools[0].name',
      'tools[1].code',
      'tools[2].url',
      'tools[3].nodeId',
    ])
    expect(checkAgentConfig(agentConfigSchema.parse({ prompt: 'go', tools: [codeTool] }))).toEqual([])
  })
})

describe('agent node definition', () => {
  it('describes its fields for the inspector, protection fields grouped and optional', async () => {
    const byKey = new Map((await agentNode.fields()).map((f) => [f.key, f]))
    expect(byKey.get('tools')?.kind).toBe('tools')
    for (const key of [
      'maxIterations',
      'maxTokenBudget',
      'loopDetectionEnabled',
      'loopDetectionThreshold',
      'progressAware',
      'cycleDetection',
      'finalizeAfterStop',
      'sandboxTimeoutMs',
      'toolTimeoutMs',
    ]) {
      expect(byKey.get(key), key).toMatchObject({ group: 'protection', optional: true })
    }
    expect(byKey.get('loopDetectionThreshold')?.range).toBe(LOOP_TRIP_AT_RANGE)
    expect(agentNode.engine.outputs(defaultAgentConfig())).toEqual([
      'response',
      'iterations',
      'usage',
      'stopReason',
      'toolCalls',
    ])
  })

  it('has a label and help text for every field in both languages', async () => {
    const en = (await import('../../../src/i18n/en/agent.json')).default as Record<string, unknown>
    const zh = (await import('../../../src/i18n/zh-CN/agent.json')).default as Record<string, unknown>
    const lookup = (catalogue: Record<string, unknown>, key: string): unknown =>
      key
        .replace(/^agent:/, '')
        .split('.')
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue)
    for (const f of await agentNode.fields()) {
      for (const key of [f.labelKey, f.helpKey ?? '']) {
        expect(typeof lookup(en, key), key).toBe('string')
        expect(typeof lookup(zh, key), key).toBe('string')
        expect(lookup(zh, key)).not.toBe(lookup(en, key))
      }
    }
  })

  it('summarises the prompt and the tool names', () => {
    const config = agentConfigSchema.parse({ prompt: 'Find pending orders\nthen report', tools: [codeTool] })
    expect(agentNode.summary(config)).toBe('Find pending orders · lookup')
  })
})
