import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { ApiError } from './api'

/** Put the server's per-field messages (a 422's `errors`) under the matching form fields, so
 * each shows beside its field. `aliases` maps a server field name to the form's (`new_password`
 * for `password`). Returns whether any field got one. */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  aliases: Partial<Record<string, Path<T>>> = {},
): boolean {
  if (!(error instanceof ApiError)) return false
  let placed = false
  for (const [name, messages] of Object.entries(error.errors)) {
    const field = aliases[name] ?? (fields.includes(name as Path<T>) ? (name as Path<T>) : undefined)
    if (field && messages[0]) {
      setError(field, { type: 'server', message: messages[0] })
      placed = true
    }
  }
  return placed
}
