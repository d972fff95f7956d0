/** Mount once: the batch screen (a dialog over the editor; its state outlives closing it). */
import { BatchScreen } from './BatchScreen.tsx'
import './batch.css'

export function BatchHost() {
  return <BatchScreen />
}
