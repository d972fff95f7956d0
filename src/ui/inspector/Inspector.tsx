/**
 * The inspector of the selected node: its title, a form generated from its definition's fields
 * (labels, help, ranges, schema messages inline), its current problems, and a slot where the
 * run view shows the node's inputs, outputs, usage and timing.
 */
import { useMemo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { getNodeDefinition } from '../../nodes/registry.ts'
import type { FieldSpec, NodeDefinition } from '../../nodes/types.ts'
import { formatPath } from '../../nodes/types.ts'
import { useFlowStore, type FlowState } from '../../store/flowStore.ts'
import { useProblems } from '../../store/preflight.ts'
import { FieldControl } from './fields/FieldControl.tsx'
import { InspectorHeader } from './InspectorHeader.tsx'
import { SelectionSummary } from './SelectionSummary.tsx'

export interface InspectorProps {
  /** Extra content for the selected node (the run helper shows run details here). */
  renderNodeExtras?: (nodeId: string) => ReactNode
}

function selectedId(s: FlowState): string | null {
  if (s.selectedNodeIds.size !== 1) return null
  const [id] = s.selectedNodeIds
  return id ?? null
}

/** The selected node's parts that the form reads; its position is left out so drags do not re-render. */
function useSelectedNode() {
  const id = useFlowStore(selectedId)
  const type = useFlowStore((s) => (id === null ? null : (s.nodes.find((n) => n.id === id)?.type ?? null)))
  const data = useFlowStore((s) => (id === null ? null : (s.nodes.find((n) => n.id === id)?.data ?? null)))
  return id === null || type === null || data === null ? null : { id, type, data }
}

function issuesByKey(
  definition: NodeDefinition | undefined,
  config: Record<string, unknown>,
): Map<string, string> {
  const out = new Map<string, string>()
  if (!definition) return out
  const result = definition.schema.safeParse(config)
  if (result.success) return out
  for (const issue of result.error.issues) {
    const key = typeof issue.path[0] === 'string' ? issue.path[0] : ''
    const where = issue.path.length > 1 ? `${formatPath(issue.path.slice(1))}: ` : ''
    if (!out.has(key)) out.set(key, `${where}${issue.message}`)
  }
  return out
}

function groupFields(fields: readonly FieldSpec[]): Array<{ group: string | null; fields: FieldSpec[] }> {
  const groups: Array<{ group: string | null; fields: FieldSpec[] }> = []
  for (const field of fields) {
    const group = field.group ?? null
    const last = groups[groups.length - 1]
    if (last && last.group === group) last.fields.push(field)
    else groups.push({ group, fields: [field] })
  }
  return groups
}

export function Inspector({ renderNodeExtras }: InspectorProps) {
  const { t } = useTranslation()
  const node = useSelectedNode()
  const selectionSize = useFlowStore((s) => s.selectedNodeIds.size)
  const problems = useProblems()
  const definition = node ? getNodeDefinition(node.type) : undefined
  const config = node?.data.config
  const issues = useMemo(
    () => (config ? issuesByKey(definition, config) : new Map<string, string>()),
    [definition, config],
  )

  if (node === null) {
    return (
      <aside className="wf-inspector" data-testid="node-inspector" aria-label={t('inspector.title')}>
        <SelectionSummary count={selectionSize} />
      </aside>
    )
  }
  const nodeProblems = problems.filter((p) => p.nodeId === node.id)
  return (
    <aside
      className="wf-inspector"
      data-testid="node-inspector"
      data-node-id={node.id}
      aria-label={t('inspector.title')}
    >
      <InspectorHeader nodeId={node.id} type={node.type} label={node.data.label} definition={definition} />
      {nodeProblems.length > 0 ? (
        <ul className="wf-inspector__problems">
          {nodeProblems.map((p, i) => (
            <li key={i} className={`wf-inspector__problem wf-inspector__problem--${p.severity}`}>
              {t(`problem.${p.code}`, { ...p.params, node: `"${node.data.label}"`, defaultValue: p.message })}
            </li>
          ))}
        </ul>
      ) : null}
      <form className="wf-inspector__form" onSubmit={(e) => e.preventDefault()} key={node.id}>
        {definition ? (
          groupFields(definition.fields).map(({ group, fields }, gi) => {
            const controls = fields.map((field) => (
              <FieldControl
                key={field.key}
                nodeId={node.id}
                field={field}
                value={node.data.config[field.key]}
                config={node.data.config}
                issue={issues.get(field.key)}
              />
            ))
            return group === null ? (
              <div key={`g${gi}`} className="wf-inspector__fields">
                {controls}
              </div>
            ) : (
              <details key={`g${gi}`} className="wf-inspector__group">
                <summary>{t(`inspector.group.${group}`, { defaultValue: group })}</summary>
                <div className="wf-inspector__fields">{controls}</div>
              </details>
            )
          })
        ) : (
          <p className="wf-section-hint">{t('inspector.unknownType', { type: node.type })}</p>
        )}
      </form>
      {renderNodeExtras ? <div className="wf-inspector__extras">{renderNodeExtras(node.id)}</div> : null}
    </aside>
  )
}
