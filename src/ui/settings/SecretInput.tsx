/**
 * A text input for secrets. Uncontrolled on purpose: React copies a controlled input's value
 * into its `value` attribute, which would put the secret into the page's HTML. Here the value
 * is only ever set as the DOM property.
 */
import { useEffect, useRef, type InputHTMLAttributes } from 'react'

export interface SecretInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'defaultValue' | 'onChange'
> {
  value: string
  onValue(value: string): void
}

export function SecretInput({ value, onValue, ...rest }: SecretInputProps) {
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (ref.current !== null && ref.current.value !== value) ref.current.value = value
  }, [value])
  return (
    <input
      ref={ref}
      autoComplete="off"
      spellCheck={false}
      {...rest}
      onChange={(e) => onValue(e.target.value)}
    />
  )
}
