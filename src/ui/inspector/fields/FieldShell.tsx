/** A field's frame: the visible label, help text and the inline validation message. */
import type { ReactNode } from 'react'

export interface FieldShellProps {
  inputId: string
  label: string
  help?: string
  message?: string | null
  helpId: string
  /** Group-like fields (lists, editors) label a fieldset instead of one input. */
  asGroup?: boolean
  children: ReactNode
  trailing?: ReactNode
  /** Under the control: what an inheritable field takes and where from. */
  note?: ReactNode
  /** Marks the frame for tests and styles: the field key, and whether it inherits now. */
  fieldKey?: string
  inherits?: boolean
}

export function FieldShell({
  inputId,
  label,
  help,
  message,
  helpId,
  asGroup,
  children,
  trailing,
  note,
  fieldKey,
  inherits,
}: FieldShellProps) {
  const labelEl = asGroup ? (
    <span className="wf-field__label" id={`${inputId}-label`}>
      {label}
    </span>
  ) : (
    <label className="wf-field__label" htmlFor={inputId}>
      {label}
    </label>
  )
  return (
    <div
      className="wf-field"
      data-testid="inspector-field"
      data-field-key={fieldKey}
      data-inherits={inherits}
      data-invalid={message ? true : undefined}
    >
      <div className="wf-field__head">
        {labelEl}
        {trailing}
      </div>
      {asGroup ? (
        <div role="group" aria-labelledby={`${inputId}-label`}>
          {children}
        </div>
      ) : (
        children
      )}
      {note}
      {message ? (
        <p className="wf-field__error" id={`${helpId}-error`} role="alert">
          {message}
        </p>
      ) : null}
      <FieldHelp help={help} helpId={helpId} />
    </div>
  )
}

/** A field's help line under its control; `helpId` is what the control's aria-describedby names. */
export function FieldHelp({ help, helpId }: { help?: string | undefined; helpId: string }) {
  return help ? (
    <p className="wf-field__help" id={helpId}>
      {help}
    </p>
  ) : null
}
