/** Renders editor parts the way the app does: i18n ready, services context, React Flow provider. */
import type { ReactElement } from 'react'
import { render, type RenderResult } from '@testing-library/react'
import { ReactFlowProvider } from '@xyflow/react'
import { noopFlowsService, ServicesContext, type AppServices } from '../../src/ui/services.ts'
import type { FlowDocument } from '../../src/engine/index.ts'
import {
  AGENT_NAMESPACE,
  CONNECT_NAMESPACE,
  ERRORS_NAMESPACE,
  FIELDS_NAMESPACE,
  INSPECTOR_NAMESPACE,
  ISSUES_NAMESPACE,
  SHORTCUTS_NAMESPACE,
  initI18n,
  loadNamespaces,
  TEMPLATES_NAMESPACE,
} from '../../src/i18n/index.ts'
import { getNodeDefinition } from '../../src/nodes/registry.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { noticeStore } from '../../src/store/noticeStore.ts'
import { runStore } from '../../src/store/runStore.ts'

export async function renderEditor(
  ui: ReactElement,
  services: Partial<AppServices> = {},
): Promise<RenderResult> {
  await initI18n('en')
  // What the app loads with the inspector's form, the gallery, the first error banner, the
  // first problems list and the shortcut sheet.
  await loadNamespaces([
    AGENT_NAMESPACE,
    INSPECTOR_NAMESPACE,
    FIELDS_NAMESPACE,
    TEMPLATES_NAMESPACE,
    ERRORS_NAMESPACE,
    ISSUES_NAMESPACE,
    SHORTCUTS_NAMESPACE,
    CONNECT_NAMESPACE,
  ])
  const value: AppServices = { flows: noopFlowsService, ...services }
  return render(
    <ServicesContext.Provider value={value}>
      <ReactFlowProvider>{ui}</ReactFlowProvider>
    </ServicesContext.Provider>,
  )
}

/** Opens `nodes`/`edges` in the app's flow store with fresh run and notice state. */
export function openFlow(nodes: FlowDocument['nodes'], edges: FlowDocument['edges'] = [], id = 'f1'): void {
  flowStore.getState().actions.load({
    metadata: {
      id,
      name: 'Test flow',
      description: '',
      tags: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes,
    edges,
  })
  runStore.getState().actions.reset()
  noticeStore.setState({ banner: null, notes: [] })
}

/** A node as the palette makes it: the definition's default config, with `patch` applied. */
export function paletteNode(
  id: string,
  type: string,
  patch: Record<string, unknown> = {},
  x = 0,
  y = 0,
): FlowDocument['nodes'][number] {
  const config = { ...(getNodeDefinition(type)?.defaultConfig() as Record<string, unknown>), ...patch }
  return { id, type, position: { x, y }, data: { label: id, config } }
}
