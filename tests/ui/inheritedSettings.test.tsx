// @vitest-environment jsdom
/**
 * Inheritable fields (issue 16, item 3): what the inspector shows for an empty field is what
 * the engine runs with, read from the same global settings; an override is marked and a reset
 * drops it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { AgentLoopParams, RuntimeProtection } from '../../src/engine/index.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { settingsStore } from '../../src/store/settingsStore.ts'
import { defaultSettings } from '../../src/settings/schema.ts'
import type { CodeEditorProps } from '../../src/ui/inspector/codeEditorProps.ts'
import { Inspector } from '../../src/ui/inspector/Inspector.tsx'
import { fakeCodeRunner } from '../support/fakeCodeRunner.ts'
import { flow, testContext } from '../support/flowBuilders.ts'
import { ManualClock } from '../support/manualClock.ts'
import { scriptedProvider } from '../support/scriptedProvider.ts'
import { runWithClock } from '../nodes/runNodes.ts'
import { openFlow, paletteNode, renderEditor } from './harness.tsx'

vi.mock('../../src/ui/inspector/CodeEditor.tsx', () => ({
  default: (props: CodeEditorProps) => (
    <textarea
      aria-label={props.ariaLabel}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  ),
}))

// Records what the Agent executor hands the guarded loop, then lets the real loop run.
const loopInputs: AgentLoopParams[] = []
vi.mock('../../src/engine/agent/loop.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/engine/agent/loop.ts')>()
  return {
    ...original,
    runAgentLoop: (input: AgentLoopParams) => {
      loopInputs.push(input)
      return original.runAgentLoop(input)
    },
  }
})

/** Global settings unlike the built-in defaults, so an inherited default would show up as wrong. */
const GLOBAL: RuntimeProtection = {
  loopDetectionEnabled: false,
  loopDetectionThreshold: 4,
  progressAware: true,
  cycleDetection: false,
  textLoopDetection: false,
  maxIterations: 7,
  maxTokenBudget: 12_345,
  sandboxTimeoutMs: 7_000,
  toolTimeoutMs: 45_000,
  templateMaxChars: 123_456,
}

const BOOLEAN_KEYS = ['loopDetectionEnabled', 'progressAware', 'cycleDetection'] as const
/** Each number key with the factor from the shown unit to the stored one, and the unit shown. */
const NUMBER_KEYS = [
  ['loopDetectionThreshold', 1, ''],
  ['maxIterations', 1, ''],
  ['maxTokenBudget', 1, ' tokens'],
  ['sandboxTimeoutMs', 1000, ' s'],
  ['toolTimeoutMs', 1000, ' s'],
] as const

afterEach(() => {
  settingsStore.getState().setSettings(defaultSettings())
  loopInputs.length = 0
})

function frame(panel: HTMLElement, key: string): HTMLElement {
  const el = panel.querySelector<HTMLElement>(`[data-testid="inspector-field"][data-field-key="${key}"]`)
  if (!el) throw new Error(`no field ${key}`)
  return el
}

function note(panel: HTMLElement, key: string): string {
  return within(frame(panel, key)).getByTestId('inherit-note').textContent ?? ''
}

function config(id: string): Record<string, unknown> {
  return flowStore.getState().nodes.find((n) => n.id === id)?.data.config ?? {}
}

async function inspect(node: ReturnType<typeof paletteNode>, waitKey: string): Promise<HTMLElement> {
  openFlow([node])
  flowStore.getState().actions.select([node.id])
  await renderEditor(<Inspector />)
  const panel = await screen.findByTestId('node-inspector')
  // The form is a lazy chunk: its first load in a test file takes a while. The type's own fields
  // (and their catalogue) may come a moment after the Title: wait until `waitKey` is drawn.
  await within(panel).findByLabelText('Title', undefined, { timeout: 10_000 })
  await waitFor(() => frame(panel, waitKey), { timeout: 10_000 })
  return panel
}

/** Runs Input -> `node` with the settings' protection as the run gets it (RunContext.protection). */
async function runWithSettings(type: string, config: Record<string, unknown>) {
  const clock = new ManualClock()
  const codeRunner = fakeCodeRunner(() => 'ok')
  const { ctx } = testContext({
    clock,
    codeRunner,
    provider: scriptedProvider([{ text: 'done' }], { clock }),
    protection: { ...settingsStore.getState().settings.runtimeProtection },
  })
  const doc = flow()
    .node('in', 'input', { values: { q: 'x' } })
    .node('n', type, config)
    .chain('in', 'n')
    .build()
  await runWithClock(doc, ctx, clock)
  return { codeRunner }
}

describe('inherited settings in the inspector', () => {
  it('a new Agent shows, for every protection field, exactly what its run uses', async () => {
    settingsStore.getState().setSettings({
      ...defaultSettings(),
      runtimeProtection: { ...defaultSettings().runtimeProtection, ...GLOBAL },
    })
    const node = paletteNode('agent_1', 'agent', { prompt: 'Go' })
    const panel = await inspect(node, 'finalizeAfterStop')
    await runWithSettings('agent', node.data.config)
    const used = loopInputs[0]?.protection
    if (!used) throw new Error('the agent loop did not run')

    for (const key of BOOLEAN_KEYS) {
      const box = within(frame(panel, key)).getByRole('checkbox') as HTMLInputElement
      expect(box.checked, `${key} is shown as the run uses it`).toBe(used[key])
      expect(note(panel, key)).toBe(`Inherited: ${used[key] ? 'on' : 'off'}, from Settings`)
    }
    for (const [key, scale, unit] of NUMBER_KEYS) {
      const input = within(frame(panel, key)).getByRole('textbox') as HTMLInputElement
      expect(input.value, `${key} is empty: it inherits`).toBe('')
      expect(Number(input.placeholder) * scale, `${key} placeholder is the value the run uses`).toBe(
        used[key],
      )
      expect(note(panel, key)).toBe(
        `Inherited: ${(used[key] / scale).toLocaleString('en')}${unit}, from Settings`,
      )
    }
    // No global setting: the built-in default, on.
    expect(used.finalizeAfterStop).toBe(true)
    expect(note(panel, 'finalizeAfterStop')).toBe('Inherited: on, built-in default')
    expect(note(panel, 'temperature')).toBe("Inherited: the provider's default")
  })

  it('a Code node shows the sandbox timeout its run uses', async () => {
    settingsStore.getState().setSettings({
      ...defaultSettings(),
      runtimeProtection: { ...defaultSettings().runtimeProtection, ...GLOBAL },
    })
    const node = paletteNode('code_1', 'code', { code: 'return 1' })
    const panel = await inspect(node, 'timeoutMs')
    const { codeRunner } = await runWithSettings('code', node.data.config)
    const usedMs = codeRunner.requests[0]?.timeoutMs
    expect(usedMs).toBe(GLOBAL.sandboxTimeoutMs)
    const input = within(frame(panel, 'timeoutMs')).getByRole('textbox') as HTMLInputElement
    expect(Number(input.placeholder) * 1000).toBe(usedMs)
    expect(note(panel, 'timeoutMs')).toBe('Inherited: 7 s, from Settings')
  })

  it('a click stores an override, marked as such; reset goes back to inheriting', async () => {
    const panel = await inspect(paletteNode('agent_1', 'agent'), 'loopDetectionEnabled')
    const box = within(frame(panel, 'loopDetectionEnabled')).getByRole('checkbox') as HTMLInputElement
    expect(box.checked).toBe(true)
    expect(
      within(panel).queryByRole('button', { name: 'Reset Loop detection to the inherited value' }),
    ).toBeNull()

    fireEvent.click(box)
    expect(config('agent_1')['loopDetectionEnabled']).toBe(false)
    expect(box.checked).toBe(false)
    expect(note(panel, 'loopDetectionEnabled')).toBe('Set on this node (Settings: on)')
    expect(frame(panel, 'loopDetectionEnabled')).toHaveAttribute('data-inherits', 'false')

    fireEvent.click(
      within(panel).getByRole('button', { name: 'Reset Loop detection to the inherited value' }),
    )
    expect(config('agent_1')['loopDetectionEnabled']).toBeUndefined()
    // The control is drawn afresh by a reset (so a refused draft goes too): look it up again.
    expect(within(frame(panel, 'loopDetectionEnabled')).getByRole('checkbox')).toBeChecked()
    expect(note(panel, 'loopDetectionEnabled')).toBe('Inherited: on, from Settings')
    // The reset is its own undo step: undo brings the override back.
    flowStore.getState().actions.undo()
    expect(config('agent_1')['loopDetectionEnabled']).toBe(false)
  })

  it('timeouts are typed in seconds and stored in milliseconds; a refused draft is dropped by reset', async () => {
    const panel = await inspect(paletteNode('agent_1', 'agent'), 'toolTimeoutMs')
    const input = within(frame(panel, 'toolTimeoutMs')).getByRole('textbox') as HTMLInputElement
    fireEvent.change(input, { target: { value: '12.5' } })
    expect(config('agent_1')['toolTimeoutMs']).toBe(12_500)
    expect(note(panel, 'toolTimeoutMs')).toBe('Set on this node (Settings: 30 s)')
    fireEvent.change(input, { target: { value: '1' } })
    expect(within(frame(panel, 'toolTimeoutMs')).getByRole('alert')).toHaveTextContent('between 5 and 300')
    expect(config('agent_1')['toolTimeoutMs']).toBe(12_500)

    fireEvent.click(within(panel).getByRole('button', { name: 'Reset Tool timeout to the inherited value' }))
    expect(config('agent_1')['toolTimeoutMs']).toBeUndefined()
    const fresh = within(frame(panel, 'toolTimeoutMs')).getByRole('textbox') as HTMLInputElement
    expect(fresh.value).toBe('')
    expect(within(frame(panel, 'toolTimeoutMs')).queryByRole('alert')).toBeNull()
    expect(note(panel, 'toolTimeoutMs')).toBe('Inherited: 30 s, from Settings')
  })

  it('follows the global setting while the node inherits', async () => {
    const panel = await inspect(paletteNode('agent_1', 'agent'), 'maxTokenBudget')
    expect(note(panel, 'maxTokenBudget')).toBe('Inherited: unlimited, from Settings')
    const settings = settingsStore.getState().settings
    settingsStore.getState().setSettings({
      ...settings,
      runtimeProtection: { ...settings.runtimeProtection, cycleDetection: false, maxTokenBudget: 5000 },
    })
    expect(await within(frame(panel, 'cycleDetection')).findByRole('checkbox')).not.toBeChecked()
    expect(note(panel, 'cycleDetection')).toBe('Inherited: off, from Settings')
    expect(note(panel, 'maxTokenBudget')).toBe('Inherited: 5,000 tokens, from Settings')
  })
})
