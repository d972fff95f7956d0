/**
 * The Agent's tools: each has a name, a description, JSON Schema parameters, and what runs when
 * the model calls it: JavaScript in the sandbox (`code`), an HTTP request (`http`), or another
 * node of this flow (`node`).
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../kit/Button.tsx'
import { ToolCard, type Tool } from './ToolCard.tsx'
import type { FieldProps } from './types.ts'

export const TOOL_KINDS = ['code', 'http', 'node'] as const

function asTools(value: unknown): Tool[] {
  return Array.isArray(value)
    ? value.filter((v): v is Tool => v !== null && typeof v === 'object' && !Array.isArray(v))
    : []
}

function freshName(tools: readonly Tool[]): string {
  const used = new Set(tools.map((tool) => tool['name']))
  let n = tools.length + 1
  while (used.has(`tool_${n}`)) n += 1
  return `tool_${n}`
}

export function newTool(name: string): Tool {
  return {
    name,
    description: '',
    kind: 'code',
    parameters: { type: 'object', properties: {}, required: [] },
    code: 'return args',
  }
}

export function ToolsField({ inputId, nodeId, value, onChange, onRefuse }: FieldProps) {
  const { t } = useTranslation()
  const tools = asTools(value)
  const [open, setOpen] = useState<number | null>(tools.length === 1 ? 0 : null)

  const update = (index: number, patch: Tool, subKey: string): void => {
    onChange(
      tools.map((tool, i) => (i === index ? patch : tool)),
      `${index}.${subKey}`,
    )
  }

  return (
    <div className="wf-tools" id={inputId}>
      {tools.length === 0 ? <p className="wf-section-hint">{t('inspector:tools.empty')}</p> : null}
      {tools.map((tool, index) => (
        <ToolCard
          key={index}
          index={index}
          tool={tool}
          agentId={nodeId}
          open={open === index}
          onToggle={() => setOpen(open === index ? null : index)}
          onChange={(next, subKey) => update(index, next, subKey)}
          onRefuse={onRefuse}
          onRemove={() => {
            onChange(
              tools.filter((_, i) => i !== index),
              'remove',
            )
            setOpen(null)
          }}
        />
      ))}
      <Button
        size="sm"
        icon="plus"
        data-testid="add-tool"
        onClick={() => {
          onChange([...tools, newTool(freshName(tools))], 'add')
          setOpen(tools.length)
        }}
      >
        {t('inspector:tools.add')}
      </Button>
    </div>
  )
}
