/** The selected node's form: header, its problems, and fields generated from its definition. */
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { FlowNode } from '../../engine/index.ts'
import { getNodeDefinition } from '../../nodes/registry.ts'
import type { FieldSpec, NodeDefinition } from '../../nodes/types.ts'
import { formatPath } from '../../nodes/types.ts'
import { useReadOnly } from '../../store/flowStore.ts'
import { useProblems } from '../../store/preflight.ts'
import { useSettings } from '../../store/settingsStore.ts'
import { FieldControl } from './fields/FieldControl.tsx'
import { InspectorHeader } from './InspectorHeader.tsx'
import { canConnectFrom } from '../connect/connectTargets.ts'
import { useNodeFields } from './useNodeFields.ts'

export interface InspectorBodyProps {
  node: { id: string; type: string; data: FlowNode['data'] }
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

export default function InspectorBody({ node }: InspectorBodyProps) {
  const { t } = useTranslation()
  const problems = useProblems()
  const readOnly = useReadOnly()
  const definition = getNodeDefinition(node.type)
  const config = node.data.config
  // The field list loads with the inspector (NodeDefinition.fields); the form shows once it is here.
  const allFields = useNodeFields(definition)
  const fields = useMemo(
    () => allFields?.filter((f) => f.shownWhen === undefined || f.shownWhen(config)) ?? null,
    [allFields, config],
  )
  const issues = useMemo(() => issuesByKey(definition, config), [definition, config])
  // What empty fields take, from the same globals a run gets (RunContext.protection).
  const protection = useSettings((s) => s.runtimeProtection)
  const inherited = useMemo(() => definition?.inherited?.({ protection }) ?? {}, [definition, protection])
  const nodeProblems = problems.filter((p) => p.nodeId === node.id)
  return (
    <>
      <InspectorHeader
        nodeId={node.id}
        type={node.type}
        label={node.data.label}
        definition={definition}
        canConnect={canConnectFrom(node)}
      />
      {nodeProblems.length > 0 ? (
        <ul className="wf-inspector__problems">
          {nodeProblems.map((p, i) => (
            <li key={i} className={`wf-inspector__problem wf-inspector__problem--${p.severity}`}>
              {t(`issues:problem.${p.code}`, {
                ...p.params,
                node: `"${node.data.label}"`,
                defaultValue: p.message,
              })}
            </li>
          ))}
        </ul>
      ) : null}
      <form className="wf-inspector__form" onSubmit={(e) => e.preventDefault()} key={node.id}>
        {/* A past run is a view: every field of the form is off at once (the store refuses edits too). */}
        <fieldset className="wf-inspector__fieldset" disabled={readOnly}>
          {!definition ? (
            <p className="wf-section-hint">{t('inspector:unknownType', { type: node.type })}</p>
          ) : fields === null ? null : (
            groupFields(fields).map(({ group, fields }, gi) => {
              const controls = fields.map((field) => (
                <FieldControl
                  key={field.key}
                  nodeId={node.id}
                  field={field}
                  value={config[field.key]}
                  config={config}
                  issue={issues.get(field.key)}
                  inherited={field.optional ? inherited[field.key] : undefined}
                />
              ))
              return group === null ? (
                <div key={`g${gi}`} className="wf-inspector__fields">
                  {controls}
                </div>
              ) : (
                <details key={`g${gi}`} className="wf-inspector__group">
                  <summary>{t(`inspector:group.${group}`, { defaultValue: group })}</summary>
                  <div className="wf-inspector__fields">{controls}</div>
                </details>
              )
            })
          )}
        </fieldset>
      </form>
    </>
  )
}
