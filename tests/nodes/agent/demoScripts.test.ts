/**
 * The bundled demo scripts (public/demo-scripts) played by the real demo provider through the
 * agent loop: each one shows the guard behaviour it is named after.
 */
import { createSchemaValidator } from '../../../src/platform/schemaValidator.ts'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  resolveAgentProtection,
  runAgentLoop,
  type AgentProtection,
  type AgentTool,
  type GuardAlert,
} from '../../../src/engine/run.ts'
import { createDemoProvider } from '../../../src/providers/demo.ts'
import { parseDemoScript } from '../../../src/providers/demoScript.ts'
import { ManualClock } from '../../support/manualClock.ts'

const dir = new URL('../../../public/demo-scripts/', import.meta.url)

function load(name: string) {
  return parseDemoScript(
    JSON.parse(readFileSync(new URL(`${name}.demo-script.json`, dir), 'utf8')) as unknown,
  )
}

const fixed = (name: string, result: string): AgentTool => ({
  spec: { name, description: name, parameters: { type: 'object' } },
  timeoutMs: 30_000,
  run: async () => result,
})

async function play(name: string, tools: AgentTool[], protection: Partial<AgentProtection> = {}) {
  const clock = new ManualClock()
  const alerts: GuardAlert[] = []
  const running = runAgentLoop({
    provider: createDemoProvider({ clock, script: load(name) }),
    model: '',
    systemPrompt: 'You are a demo agent.',
    prompt: 'Go.',
    tools,
    protection: resolveAgentProtection(protection),
    clock,
    estimateTokens: async (text) => Math.ceil(text.length / 4),
    validator: createSchemaValidator(),
    signal: new AbortController().signal,
    emit: { chunk: () => undefined, guard: (alert) => alerts.push(alert) },
  })
  await clock.runAll()
  return { result: await running, alerts }
}

describe('demo scripts', () => {
  it('are all valid wardflow.demo-script v1 files', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.demo-script.json'))
    expect(files.sort()).toEqual([
      'alternating-agent.demo-script.json',
      'budget-burner.demo-script.json',
      'good-agent.demo-script.json',
      'stuck-agent.demo-script.json',
    ])
    for (const file of files) expect(() => load(file.replace('.demo-script.json', ''))).not.toThrow()
  })

  it('stuck-agent: the same call forever gets a hint, then trips, then a finalize answer', async () => {
    const { result, alerts } = await play('stuck-agent', [fixed('query_db', '[]')])
    expect(alerts.map((a) => `${a.layer}:${a.level}:${a.detector}`)).toEqual([
      'loop:hint:repeat',
      'loop:trip:repeat',
    ])
    expect(result).toMatchObject({ stopReason: 'deadlock', status: 'stopped', iterations: 3 })
    expect(result.response).toMatch(/^There are no pending orders/)
  })

  it('alternating-agent: A-B-A-B gets a cycle hint, then trips naming the cycle', async () => {
    const { result, alerts } = await play('alternating-agent', [
      fixed('open_file', 'src/app.ts:3 error TS2322: Type string is not assignable to type number.'),
      fixed('edit_file', 'Edit applied.'),
    ])
    expect(alerts.map((a) => `${a.layer}:${a.level}:${a.detector}`)).toEqual([
      'loop:hint:cycle',
      'loop:trip:cycle',
    ])
    expect(alerts[1]?.message).toContain('"open_file" -> "edit_file"')
    expect(result).toMatchObject({ stopReason: 'deadlock', iterations: 6 })
    expect(result.response).toMatch(/^The same edit keeps reporting success/)
  })

  it('budget-burner: stops on the token budget with the partial answer', async () => {
    const { result, alerts } = await play('budget-burner', [fixed('search', 'Some figures.')], {
      maxTokenBudget: 10_000,
    })
    expect(alerts).toEqual([
      expect.objectContaining({
        layer: 'budget',
        level: 'trip',
        total: 12_000,
        budget: 10_000,
        phase: 'after-call',
      }),
    ])
    expect(result).toMatchObject({ stopReason: 'budget', status: 'stopped', iterations: 3 })
    expect(result.response).toContain('Page 3.')
  })

  it('good-agent: two different tool calls, then an answer, and no alert', async () => {
    const { result, alerts } = await play('good-agent', [
      fixed('get_weather', 'sunny, 21 °C'),
      fixed('get_time', '14:05'),
    ])
    expect(alerts).toEqual([])
    expect(result).toMatchObject({ stopReason: 'answer', status: 'success', iterations: 3 })
    expect(result.toolCalls.map((c) => c.name)).toEqual(['get_weather', 'get_time'])
  })
})
