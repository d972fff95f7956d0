/** Buttons of the kit: text buttons and square icon buttons (with a required accessible name). */
import { forwardRef, type ButtonHTMLAttributes, type ReactNode } from 'react'
import { Icon, type IconName } from './icons.tsx'

type Variant = 'default' | 'primary' | 'danger' | 'ghost'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant
  icon?: IconName
  size?: 'sm' | 'md'
  children?: ReactNode
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'default', icon, size = 'md', className, children, type = 'button', ...rest },
  ref,
) {
  const classes = ['wf-btn', `wf-btn--${variant}`, `wf-btn--${size}`, className].filter(Boolean).join(' ')
  return (
    <button ref={ref} type={type} className={classes} {...rest}>
      {icon ? <Icon name={icon} size={size === 'sm' ? 14 : 16} /> : null}
      {children}
    </button>
  )
})

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  icon: IconName
  /** The accessible name, also shown as a tooltip. */
  label: string
  variant?: Variant
  size?: 'sm' | 'md'
}

export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(function IconButton(
  { icon, label, variant = 'ghost', size = 'md', className, type = 'button', title, ...rest },
  ref,
) {
  const classes = ['wf-btn', 'wf-btn--icon', `wf-btn--${variant}`, `wf-btn--${size}`, className]
    .filter(Boolean)
    .join(' ')
  return (
    <button ref={ref} type={type} className={classes} aria-label={label} title={title ?? label} {...rest}>
      <Icon name={icon} size={size === 'sm' ? 14 : 16} />
    </button>
  )
})
