/**
 * The inspector of the selected node. This shell is in the first-paint bundle; the form itself
 * (fields, validation, editors) is a lazy chunk loaded on the first selection, with the Agent
 * fields' catalogue (agent), the other types' field texts (fields) and the form's own (inspector), which nothing else shows, and the
 * wording of its problems (issues).
 */
import { lazy, Suspense, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import {
  AGENT_NAMESPACE,
  CONNECT_NAMESPACE,
  FIELDS_NAMESPACE,
  INSPECTOR_NAMESPACE,
  ISSUES_NAMESPACE,
  loadNamespaces,
} from '../../i18n/index.ts'
import { useFlowStore, type FlowState } from '../../store/flowStore.ts'
import { SelectionSummary } from './SelectionSummary.tsx'

const InspectorBody = lazy(async () => {
  const [body] = await Promise.all([
    import('./InspectorBody.tsx'),
    loadNamespaces([
      INSPECTOR_NAMESPACE,
      FIELDS_NAMESPACE,
      AGENT_NAMESPACE,
      CONNECT_NAMESPACE,
      ISSUES_NAMESPACE,
    ]),
  ])
  return body
})

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

export function Inspector({ renderNodeExtras }: InspectorProps) {
  const { t } = useTranslation()
  const node = useSelectedNode()
  const selectionSize = useFlowStore((s) => s.selectedNodeIds.size)
  return (
    <aside
      className="wf-inspector"
      data-testid="node-inspector"
      data-node-id={node?.id}
      aria-label={t('inspector.title')}
    >
      {node === null ? (
        <SelectionSummary count={selectionSize} />
      ) : (
        <Suspense fallback={<div className="wf-inspector__loading" aria-busy="true" />}>
          <InspectorBody node={node} />
          {renderNodeExtras ? <div className="wf-inspector__extras">{renderNodeExtras(node.id)}</div> : null}
        </Suspense>
      )}
    </aside>
  )
}
