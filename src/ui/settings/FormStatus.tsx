/**
 * A settings form's outcome beside its buttons: read out politely when it worked (status), at
 * once when it did not (alert). Every tab that saves says so the same way.
 */

export interface FormOutcome {
  ok: boolean
  text: string
}

interface FormStatusProps {
  status: FormOutcome | null
  testId?: string
  /** A paragraph of its own (under a section) rather than a line beside the buttons. */
  block?: boolean
}

export function FormStatus({ status, testId, block = false }: FormStatusProps) {
  if (status === null) return null
  const Tag = block ? 'p' : 'span'
  return (
    <Tag
      className={status.ok ? 'wf-settings-ok' : 'wf-settings-error'}
      role={status.ok ? 'status' : 'alert'}
      data-testid={testId}
    >
      {status.text}
    </Tag>
  )
}
