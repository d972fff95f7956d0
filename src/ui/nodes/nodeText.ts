/**
 * Strings every node body needs, translated once per language at the canvas level and shared
 * through a context, so 500 node bodies do not each subscribe to i18next.
 */
import { createContext, useContext } from 'react'

export interface NodeText {
  typeLabel(type: string): string
  status: Readonly<Record<string, string>>
  console: string
  collapseConsole: string
  expandConsole: string
  /** The docked console's button: no room below the node, shown in the inspector. */
  consoleDocked: string
  rename: string
  unsupported: string
  unknownType: string
  noteEmpty: string
  noteEditHint: string
  /** The node-cached marker, by reason (pinned, reused, unchanged). */
  cached: Readonly<Record<string, string>>
  /** The pin marker's label. */
  pinned: string
}

const identity: NodeText = {
  typeLabel: (type) => type,
  status: {},
  console: 'Console',
  collapseConsole: 'Collapse console',
  expandConsole: 'Expand console',
  consoleDocked: 'Console: no room below this node. Show it in the inspector',
  rename: 'Double-click to rename',
  unsupported: 'Unsupported',
  unknownType: 'Unknown type',
  noteEmpty: 'Empty note',
  noteEditHint: 'Double-click to edit',
  cached: { pinned: 'Pinned output', reused: 'Reused', unchanged: 'Unchanged: reused' },
  pinned: 'Output pinned: this node is not run',
}

export const NodeTextContext = createContext<NodeText>(identity)

export function useNodeText(): NodeText {
  return useContext(NodeTextContext)
}
