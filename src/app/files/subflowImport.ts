/**
 * Where the flows a workflow file carries go on import. A carried flow whose id no saved flow
 * has is saved under that id. One whose id a saved flow has is reused when it is the same flow
 * (same nodes and connections), so importing a file twice does not pile up copies; otherwise it
 * is saved as a copy with a new id, and every call to it (in the imported flow and in the
 * other carried flows) is rewritten to that id, so the saved flow the person has is untouched.
 */
import type { FlowDocument } from '../../engine/index.ts'
import { retargetCalls } from '../../nodes/flowLookup.ts'
import { nodeCatalog } from '../../nodes/registry.ts'

export interface SubflowPlacement {
  /** The carried flows to save (ids and calls already final). */
  save: FlowDocument[]
  /** The main flow with its calls rewritten. */
  main: FlowDocument
  /** Carried flow id -> the saved flow it is now (itself, the same saved flow, or a copy). */
  placed: ReadonlyMap<string, { id: string; how: 'new' | 'reused' | 'copy' }>
}

export interface PlacementDeps {
  /** The saved flow with this id, if any. */
  saved(id: string): Promise<FlowDocument | undefined>
  newFlowId(): string
  /** The name of a copy ("Name (copy)"). */
  copyName(name: string): string
  /** ISO time stamp of the import. */
  now: string
}

/** Same flow: same nodes (with their configs) and connections; name, place and dates aside. */
function sameFlow(a: FlowDocument, b: FlowDocument): boolean {
  return JSON.stringify([a.nodes, a.edges]) === JSON.stringify([b.nodes, b.edges])
}

export async function placeSubflows(
  main: FlowDocument,
  carried: readonly FlowDocument[],
  deps: PlacementDeps,
): Promise<SubflowPlacement> {
  const renamed = new Map<string, string>()
  const placed = new Map<string, { id: string; how: 'new' | 'reused' | 'copy' }>()
  const toSave: FlowDocument[] = []
  for (const flow of carried) {
    const id = flow.metadata.id
    const existing = await deps.saved(id)
    if (!existing) {
      placed.set(id, { id, how: 'new' })
      toSave.push(flow)
    } else if (sameFlow(existing, flow)) {
      placed.set(id, { id, how: 'reused' })
    } else {
      const copy = deps.newFlowId()
      renamed.set(id, copy)
      placed.set(id, { id: copy, how: 'copy' })
      const name = deps.copyName(flow.metadata.name)
      toSave.push({
        ...flow,
        metadata: { ...flow.metadata, id: copy, name, createdAt: deps.now, updatedAt: deps.now },
      })
    }
  }
  return {
    save: toSave.map((flow) => retargetCalls(flow, renamed, nodeCatalog)),
    main: retargetCalls(main, renamed, nodeCatalog),
    placed,
  }
}
