/** A labelled on/off switch (a checkbox with role=switch, so it is announced as one). */
import { useId } from 'react'

export interface SwitchProps {
  label: string
  hint?: string
  checked: boolean
  onChange(checked: boolean): void
  disabled?: boolean
  testId?: string
}

export function Switch({ label, hint, checked, onChange, disabled, testId }: SwitchProps) {
  const id = useId()
  const hintId = useId()
  return (
    <div className="wf-field wf-field--switch">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="wf-switch"
        checked={checked}
        disabled={disabled}
        aria-checked={checked}
        aria-describedby={hint === undefined ? undefined : hintId}
        data-testid={testId}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {hint === undefined ? null : (
        <span id={hintId} className="wf-settings-hint">
          {hint}
        </span>
      )}
    </div>
  )
}
