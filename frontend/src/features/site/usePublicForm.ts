import { useEffect, useState, type FormEvent } from 'react'

/** The spec's success message clears after 5 seconds. */
export const SUCCESS_CLEARS_MS = 5000

/**
 * The public forms' shared behaviour (subscribe, enterprise): field values, errors shown once a
 * field is touched or changed, an invalid submit touches everything and shows `invalidMessage`,
 * sending, and a success message that clears after 5 s while the form resets.
 * `send` returns the success message; its errors are the caller's to report.
 */
export function usePublicForm<K extends string>(options: {
  empty: Record<K, string>
  validate: (values: Record<K, string>) => Partial<Record<K, string>>
  invalidMessage: string
  send: (values: Record<K, string>) => Promise<string>
  onError: (error: unknown) => void
}) {
  const { empty, validate, invalidMessage, send, onError } = options
  const none = Object.fromEntries(Object.keys(empty).map((k) => [k, false])) as Record<K, boolean>
  const [values, setValues] = useState(empty)
  const [touched, setTouched] = useState(none)
  const [sending, setSending] = useState(false)
  const [success, setSuccess] = useState('')
  const [formError, setFormError] = useState('')
  const errors = validate(values)
  const invalid = Object.values(errors).some(Boolean)

  useEffect(() => {
    if (!success) return
    const timer = window.setTimeout(() => setSuccess(''), SUCCESS_CLEARS_MS)
    return () => window.clearTimeout(timer)
  }, [success])

  const touch = (key: K) => setTouched((t) => ({ ...t, [key]: true }))
  const change = (key: K) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: e.target.value }))
    touch(key)
  }
  const blur = (key: K) => () => touch(key)
  const shown = (key: K): string => (touched[key] ? (errors[key] ?? '') : '')

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (invalid) {
      setTouched(Object.fromEntries(Object.keys(empty).map((k) => [k, true])) as Record<K, boolean>)
      setFormError(invalidMessage)
      return
    }
    setFormError('')
    setSending(true)
    try {
      setSuccess(await send(values))
      setValues(empty)
      setTouched(none)
    } catch (error) {
      onError(error)
    } finally {
      setSending(false)
    }
  }

  return { values, invalid, sending, success, formError, change, blur, shown, submit }
}
