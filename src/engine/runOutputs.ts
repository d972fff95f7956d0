/**
 * The outputs of one run's settled nodes, and what each node may see of them: its direct
 * upstream outputs (in incoming-edge order) and those of all its ancestors (cached per node).
 */
import type { Outputs } from './execution.ts'
import { descendants, type FlowGraph } from './graph.ts'
import { keyedRecord } from './keyed.ts'

export class RunOutputs {
  private readonly outputs = new Map<string, Record<string, unknown>>()
  private readonly ancestorCache = new Map<string, ReadonlySet<string>>()

  constructor(private readonly graph: FlowGraph) {}

  set(id: string, output: Record<string, unknown>): void {
    this.outputs.set(id, output)
  }

  get(id: string): Record<string, unknown> | undefined {
    return this.outputs.get(id)
  }

  /** Outputs of `id`'s ancestors, keyed by node id. */
  visible(id: string): Outputs {
    const out = keyedRecord<Record<string, unknown>>()
    for (const ancestor of this.ancestorsOf(id)) {
      const output = this.outputs.get(ancestor)
      if (output) out[ancestor] = output
    }
    return out
  }

  /** `ref`'s output when it is an ancestor of `id` (templates read only upstream nodes). */
  lookup(id: string, ref: string): Record<string, unknown> | undefined {
    return this.ancestorsOf(id).has(ref) ? this.outputs.get(ref) : undefined
  }

  /** The finished direct upstream ids in incoming-edge order (graph.parents keeps it). */
  inputOrder(id: string): string[] {
    return (this.graph.parents.get(id) ?? []).filter((parent) => this.outputs.has(parent))
  }

  directInputs(id: string): Outputs {
    const inputs = keyedRecord<Record<string, unknown>>()
    for (const parent of this.graph.parents.get(id) ?? []) {
      const output = this.outputs.get(parent)
      if (output) inputs[parent] = output
    }
    return inputs
  }

  ancestorsOf(id: string): ReadonlySet<string> {
    let set = this.ancestorCache.get(id)
    if (!set) {
      set = descendants(
        { ids: this.graph.ids, parents: this.graph.children, children: this.graph.parents },
        id,
      )
      this.ancestorCache.set(id, set)
    }
    return set
  }
}
