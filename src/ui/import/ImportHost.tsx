/** Mount once: the id-conflict question and the import report. */
import { ImportConflictDialog } from './ImportConflictDialog.tsx'
import { ImportReportPanel } from './ImportReportPanel.tsx'
import './import.css'

export function ImportHost() {
  return (
    <>
      <ImportConflictDialog />
      <ImportReportPanel />
    </>
  )
}
