/**
 * Every node type Wardflow knows. Pure: the UI reads metadata from `nodeCatalog` and the runner
 * receives `engineRegistry`. Adding a type = its folder + one line below + its catalogue entries
 * (src/i18n/{en,zh-CN}/nodes.json); palette place, ports, role and wiring come from its definition.
 */
import type { NodeRegistry } from '../engine/index.ts'
import type { NodeDefinition } from './types.ts'
import { createNodeCatalog, type NodeCatalog } from './catalog.ts'
import { inputNode } from './input/index.ts'
import { templateNode } from './template/index.ts'
import { llmNode } from './llm/index.ts'
import { agentNode } from './agent/index.ts'
import { codeNode } from './code/index.ts'
import { httpNode } from './http/index.ts'
import { conditionNode } from './condition/index.ts'
import { mergeNode } from './merge/index.ts'
import { loopNode } from './loop/index.ts'
import { knowledgeNode } from './knowledge/index.ts'
import { outputNode } from './output/index.ts'
import { subflowNode } from './subflow/index.ts'
import { noteNode } from './note/index.ts'
import { unsupportedNode } from './unsupported/index.ts'

/** Each definition's config type is erased here; `engine` and `schema` keep it consistent. */
export function erase<C>(definition: NodeDefinition<C>): NodeDefinition {
  return definition as unknown as NodeDefinition
}

export const nodeDefinitions: readonly NodeDefinition[] = [
  erase(inputNode),
  erase(templateNode),
  erase(llmNode),
  erase(agentNode),
  erase(codeNode),
  erase(httpNode),
  erase(conditionNode),
  erase(mergeNode),
  erase(subflowNode),
  erase(loopNode),
  erase(knowledgeNode),
  erase(outputNode),
  erase(noteNode),
  erase(unsupportedNode),
]

/** The app's node catalog (see catalog.ts). */
export const nodeCatalog: NodeCatalog = createNodeCatalog(nodeDefinitions)

/** The definition of `type`, or undefined for a type Wardflow does not know. */
export function getNodeDefinition(type: string): NodeDefinition | undefined {
  return nodeCatalog.get(type)
}

/** What `runFlow` and `preflight` receive. */
export const engineRegistry: NodeRegistry = nodeCatalog.engine
