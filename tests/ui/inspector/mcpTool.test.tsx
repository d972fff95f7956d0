// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { McpCheck } from '../../../src/mcp/diagnose.ts'
import { defaultSettings } from '../../../src/settings/schema.ts'
import { flowStore } from '../../../src/store/flowStore.ts'
import { settingsStore } from '../../../src/store/settingsStore.ts'
import type { CodeEditorProps } from '../../../src/ui/inspector/codeEditorProps.ts'
import { toggleInclude } from '../../../src/ui/inspector/fields/McpToolFields.tsx'
import { Inspector } from '../../../src/ui/inspector/Inspector.tsx'
import { openFlow, paletteNode, renderEditor } from '../harness.tsx'

vi.mock('../../../src/ui/inspector/CodeEditor.tsx', () => ({
  default: (props: CodeEditorProps) => (
    <textarea
      aria-label={props.ariaLabel}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  ),
}))

afterEach(() => settingsStore.getState().setSettings(defaultSettings()))

function tools(): Array<Record<string, unknown>> {
  const config = flowStore.getState().nodes.find((n) => n.id === 'agent_1')?.data.config ?? {}
  return config['tools'] as Array<Record<string, unknown>>
}

describe('toggleInclude', () => {
  it('adds and removes names, and falls back to all tools when none is left', () => {
    expect(toggleInclude([], 'echo', true)).toEqual(['echo'])
    expect(toggleInclude(['echo'], 'add', true)).toEqual(['echo', 'add'])
    expect(toggleInclude(['echo', 'add'], 'echo', false)).toEqual(['add'])
    expect(toggleInclude(['echo'], 'echo', false)).toBeUndefined()
  })
})

describe('an mcp tool in the Agent inspector', () => {
  it('picks a settings server, lists its tools on demand and writes {kind, server, include}', async () => {
    settingsStore.getState().setSettings({
      ...defaultSettings(),
      mcpServers: [{ id: 'everything', name: 'Everything', url: 'http://127.0.0.1:1/mcp', headers: [] }],
    })
    const asked: string[] = []
    const check: McpCheck = {
      ok: true,
      tools: [
        { name: 'echo', description: 'Echoes back the input' },
        { name: 'add', description: 'Adds two numbers' },
      ],
    }
    const node = paletteNode('agent_1', 'agent', {
      tools: [{ name: 'tool_1', description: '', kind: 'code', code: 'return args' }],
    })
    openFlow([node])
    flowStore.getState().actions.select([node.id])
    await renderEditor(<Inspector />, {
      settings: {
        open: () => undefined,
        checkMcpServer: async (id) => {
          asked.push(id)
          return check
        },
      },
    })
    // Lazy chunks: on a loaded machine (2 test workers on 2 cores) the form takes seconds.
    const panel = await screen.findByTestId('node-inspector', undefined, { timeout: 10_000 })
    const card = await within(panel).findByTestId('tool-card', undefined, { timeout: 10_000 })
    fireEvent.change(within(card).getByLabelText('Runs'), { target: { value: 'mcp' } })
    expect(tools()[0]?.['kind']).toBe('mcp')
    const server = within(card).getByTestId('tool-mcp-server')
    expect(within(server).getByRole('option', { name: 'Everything (everything)' })).toBeTruthy()
    expect(within(card).getByTestId('tool-mcp-load')).toBeDisabled()
    fireEvent.change(server, { target: { value: 'everything' } })
    expect(tools()[0]).toMatchObject({ kind: 'mcp', server: 'everything' })
    // Nothing is fetched until asked.
    expect(asked).toEqual([])
    fireEvent.click(within(card).getByTestId('tool-mcp-load'))
    const echo = await within(card).findByRole('checkbox', { name: 'echo' })
    expect(asked).toEqual(['everything'])
    expect(within(card).getByRole('checkbox', { name: 'add' })).not.toBeChecked()
    fireEvent.click(echo)
    expect(tools()[0]).toMatchObject({ kind: 'mcp', server: 'everything', include: ['echo'] })
    fireEvent.click(within(card).getByRole('checkbox', { name: 'echo' }))
    await waitFor(() => expect(tools()[0]?.['include']).toBeUndefined())
  })
})
