// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { CodeEditorProps } from '../../src/ui/inspector/codeEditorProps.ts'
import { LLM_TEMPERATURE_RANGE } from '../../src/defaults.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { Inspector } from '../../src/ui/inspector/Inspector.tsx'
import { openFlow, paletteNode, renderEditor } from './harness.tsx'

// Monaco does not run in jsdom; the editor chunk becomes a labelled textarea.
vi.mock('../../src/ui/inspector/CodeEditor.tsx', () => ({
  default: (props: CodeEditorProps) => (
    <textarea
      data-testid="code-editor"
      aria-label={props.ariaLabel}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  ),
}))

function config(id: string): Record<string, unknown> {
  return flowStore.getState().nodes.find((n) => n.id === id)?.data.config ?? {}
}

async function inspect(node: ReturnType<typeof paletteNode>) {
  openFlow([node])
  flowStore.getState().actions.select([node.id])
  await renderEditor(<Inspector />)
  return screen.findByTestId('node-inspector').then(async (el) => {
    // Lazy chunks and catalogues: on a loaded machine (2 test workers on 2 cores) they take seconds.
    await within(el).findByLabelText('Title', undefined, { timeout: 10_000 })
    // The field list loads with the inspector (NodeDefinition.fields): wait for the form.
    await waitFor(() => expect(el.querySelector('.wf-inspector__fields')).not.toBeNull(), { timeout: 10_000 })
    return el
  })
}

describe('inspector', () => {
  it('shows a hint when nothing is selected', async () => {
    openFlow([paletteNode('llm_1', 'llm')])
    await renderEditor(<Inspector />)
    expect(screen.getByTestId('node-inspector')).toHaveTextContent('No node selected')
  })

  it('labels every field of the selected node visibly', async () => {
    const panel = await inspect(paletteNode('llm_1', 'llm'))
    for (const label of [
      'Title',
      'Prompt',
      'System prompt',
      'Temperature',
      'Model',
      'Provider',
      'Stream the reply',
    ]) {
      expect(await within(panel).findByLabelText(label, undefined, { timeout: 10_000 })).toBeVisible()
    }
  })

  it("draws only the fields of the loop's mode: a forEach loop has no until editor", async () => {
    const panel = await inspect(paletteNode('loop_1', 'loop', { mode: 'forEach', items: '{{a.list}}' }))
    expect(within(panel).getByLabelText('Items', { exact: false })).toBeVisible()
    expect(within(panel).getByLabelText('Concurrency', { exact: false })).toBeVisible()
    expect(within(panel).queryByText('Until')).toBeNull()
    expect(within(panel).queryByText('Maximum iterations')).toBeNull()
    expect(within(panel).queryByTestId('code-editor')).toBeNull()
    fireEvent.change(within(panel).getByLabelText('Mode', { exact: false }), { target: { value: 'while' } })
    expect(config('loop_1')['mode']).toBe('while')
    expect(await within(panel).findByText('Until')).toBeVisible()
    expect(within(panel).getByLabelText('Maximum iterations', { exact: false })).toBeVisible()
    expect(within(panel).queryByLabelText('Items', { exact: false })).toBeNull()
    expect(within(panel).queryByLabelText('Concurrency', { exact: false })).toBeNull()
  })

  it('refuses an out-of-range number with a message, keeps the typed text and never clamps', async () => {
    const panel = await inspect(paletteNode('llm_1', 'llm', { temperature: 0.7 }))
    const input = within(panel).getByLabelText('Temperature', { exact: false }) as HTMLInputElement
    fireEvent.change(input, { target: { value: String(LLM_TEMPERATURE_RANGE.max + 3) } })
    expect(input.value).toBe(String(LLM_TEMPERATURE_RANGE.max + 3))
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(within(panel).getByRole('alert')).toHaveTextContent(
      `between ${LLM_TEMPERATURE_RANGE.min} and ${LLM_TEMPERATURE_RANGE.max}`,
    )
    expect(config('llm_1')['temperature']).toBe(0.7)
    fireEvent.change(input, { target: { value: '1.2' } })
    expect(config('llm_1')['temperature']).toBe(1.2)
    expect(within(panel).queryByRole('alert')).toBeNull()
  })

  it('refuses a fraction where a whole number is needed, and text that is not a number', async () => {
    const panel = await inspect(paletteNode('llm_1', 'llm', { maxTokens: 100 }))
    const input = within(panel).getByLabelText('Max tokens', { exact: false })
    fireEvent.change(input, { target: { value: '10.5' } })
    expect(within(panel).getByRole('alert')).toHaveTextContent('whole number')
    fireEvent.change(input, { target: { value: 'lots' } })
    expect(within(panel).getByRole('alert')).toHaveTextContent('Enter a number')
    expect(config('llm_1')['maxTokens']).toBe(100)
  })

  it('writes template text to the store, one undo step per typing burst', async () => {
    const panel = await inspect(paletteNode('llm_1', 'llm', { prompt: '' }))
    const before = flowStore.temporal.getState().pastStates.length
    const prompt = within(panel).getByLabelText('Prompt')
    for (const text of ['W', 'Wh', 'Why', 'Why?']) fireEvent.change(prompt, { target: { value: text } })
    expect(config('llm_1')['prompt']).toBe('Why?')
    expect(flowStore.temporal.getState().pastStates.length).toBe(before + 1)
  })

  it('renames a node from its title field', async () => {
    const panel = await inspect(paletteNode('llm_1', 'llm'))
    fireEvent.change(within(panel).getByLabelText('Title'), { target: { value: 'Summariser' } })
    expect(flowStore.getState().nodes[0]?.data.label).toBe('Summariser')
  })

  it('edits record fields and refuses a duplicate key in place', async () => {
    const panel = await inspect(
      paletteNode('input_1', 'input', { values: { question: 'Why?', topic: 'sky' } }),
    )
    const second = within(panel).getByLabelText(/name 2/)
    fireEvent.change(second, { target: { value: 'question' } })
    expect(within(panel).getByRole('alert')).toHaveTextContent('already used')
    expect(config('input_1')['values']).toEqual({ question: 'Why?', topic: 'sky' })
    fireEvent.change(second, { target: { value: 'subject' } })
    expect(config('input_1')['values']).toEqual({ question: 'Why?', subject: 'sky' })
    fireEvent.click(within(panel).getByRole('button', { name: 'Add' }))
    expect(Object.keys(config('input_1')['values'] as object)).toHaveLength(3)
  })

  it('edits code in the (lazy) code editor', async () => {
    const panel = await inspect(paletteNode('code_1', 'code', { code: 'return 1' }))
    const editor = await within(panel).findByTestId('code-editor')
    expect(editor).toHaveAccessibleName('Code')
    fireEvent.change(editor, { target: { value: 'return inputs' } })
    expect(config('code_1')['code']).toBe('return inputs')
  })

  it('adds an agent tool and refuses parameters that are not a JSON object schema', async () => {
    const panel = await inspect(paletteNode('agent_1', 'agent', { tools: [] }))
    fireEvent.click(within(panel).getByTestId('add-tool'))
    const tools = config('agent_1')['tools'] as Array<Record<string, unknown>>
    expect(tools).toHaveLength(1)
    expect(tools[0]).toMatchObject({ name: 'tool_1', kind: 'code' })
    const params = (await within(panel).findAllByTestId('code-editor')).find((el) =>
      el.getAttribute('aria-label')?.startsWith('Parameters'),
    )
    if (!params) throw new Error('the parameters editor is missing')
    fireEvent.change(params, { target: { value: '{ "type": "object", ' } })
    expect(within(panel).getByRole('alert')).toHaveTextContent('not valid JSON')
    fireEvent.change(params, { target: { value: '[1, 2]' } })
    expect(within(panel).getByRole('alert')).toHaveTextContent('JSON Schema object')
    fireEvent.change(params, {
      target: { value: '{ "type": "object", "properties": { "q": { "type": "string" } } }' },
    })
    expect((config('agent_1')['tools'] as Array<Record<string, unknown>>)[0]?.['parameters']).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
    })
  })

  it('marks an agent tool to ask for approval and back to never (the key is removed)', async () => {
    const panel = await inspect(
      paletteNode('agent_1', 'agent', { tools: [{ name: 'lookup', kind: 'code', code: 'return 1' }] }),
    )
    // A lone tool's card starts open.
    const select = within(panel).getByLabelText('Approval')
    expect(select).toHaveValue('never')
    const tool = (): Record<string, unknown> | undefined =>
      (config('agent_1')['tools'] as Array<Record<string, unknown>>)[0]
    fireEvent.change(select, { target: { value: 'ask' } })
    expect(tool()).toMatchObject({ name: 'lookup', approval: 'ask' })
    expect(within(panel).getByLabelText('Approval')).toHaveValue('ask')
    fireEvent.change(within(panel).getByLabelText('Approval'), { target: { value: 'never' } })
    expect(tool()).not.toHaveProperty('approval')
    expect(tool()).toMatchObject({ name: 'lookup', code: 'return 1' })
  })
})
