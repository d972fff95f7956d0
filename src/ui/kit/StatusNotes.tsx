/** Short status notes (role=status): refused connections, pasted nodes. They fade on their own. */
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { STATUS_NOTE_MS } from '../../defaults.ts'
import { useNotices, type StatusNote } from '../../store/noticeStore.ts'
import { Icon } from './icons.tsx'

function Note({ note }: { note: StatusNote }) {
  const { t } = useTranslation()
  const dismiss = useNotices((s) => s.dismissNote)
  useEffect(() => {
    const timer = setTimeout(() => dismiss(note.id), STATUS_NOTE_MS)
    return () => clearTimeout(timer)
  }, [dismiss, note.id])
  return (
    <div className={`wf-note wf-note--${note.tone}`}>
      <Icon name={note.tone === 'warning' ? 'warning' : note.tone === 'success' ? 'check' : 'flow'} />
      <span>{t(note.key, note.values)}</span>
    </div>
  )
}

export function StatusNotes() {
  const notes = useNotices((s) => s.notes)
  return (
    <div className="wf-notes" role="status" aria-live="polite" data-testid="status-notes">
      {notes.map((note) => (
        <Note key={note.id} note={note} />
      ))}
    </div>
  )
}
