/** The error line's id for the field `id` (what the control's aria-describedby names). */
export const errorId = (id: string) => `${id}-error`
export const hintId = (id: string) => `${id}-hint`

/** The control's accessibility attributes for its Field: invalid while it has an error, and
 * described by the error line (or by the hint when there is one and no error). */
export function fieldAria(id: string, error?: string, hasHint = false) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId(id) : hasHint ? hintId(id) : undefined,
  } as const
}
