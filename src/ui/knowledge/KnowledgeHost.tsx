/** Mount once: the Knowledge screen (a dialog over the editor). */
import { KnowledgeScreen } from './KnowledgeScreen.tsx'
import './knowledge.css'

export function KnowledgeHost() {
  return <KnowledgeScreen />
}
