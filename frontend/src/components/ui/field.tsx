import type { ReactNode } from 'react'
import { errorId, hintId } from './fieldAria'

interface FieldProps {
  id: string
  label: string
  error?: string
  hint?: ReactNode
  action?: ReactNode
  children: ReactNode
}

/** A labelled form field with its error line beside it (announced to screen readers). */
export function Field({ id, label, error, hint, action, children }: FieldProps) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        {action}
      </div>
      {children}
      {error ? (
        <p id={errorId(id)} role="alert" className="text-xs font-medium text-rose-600">
          {error}
        </p>
      ) : hint ? (
        <p id={hintId(id)} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

/** A form's error that belongs to no one field (an expired link, a refused request). */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null
  return (
    <p role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200">
      {message}
    </p>
  )
}
