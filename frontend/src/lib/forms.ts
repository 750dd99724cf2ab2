import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { ApiError } from './api'

/** Put the server's per-field messages (a 422's `errors`) under the matching form fields. */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: readonly Path<T>[]): void {
  if (!(error instanceof ApiError)) return
  for (const field of fields) {
    const message = error.field(field)
    if (message) setError(field, { message })
  }
}
