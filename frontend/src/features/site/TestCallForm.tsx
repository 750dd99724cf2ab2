import { useQueryClient } from '@tanstack/react-query'
import { PhoneCall } from 'lucide-react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ApiError, messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { placeTestCall } from './api'
import { landingPhoneProblem, retryWhen } from './rules'

interface Props {
  /** Called as the request goes out (the mockup starts loading what it will need). */
  onSending?: () => void
  /** The call was placed: its id and the secret that lets this browser watch it. */
  onPlaced?: (callId: string, viewerToken: string) => void
  /** Put the focus in the phone field when shown (coming back from a finished call). */
  focusOnMount?: boolean
}

/** The phone mockup's form: the free test call. */
export function TestCallForm({ onSending, onPlaced, focusOnMount = false }: Props) {
  const region = useRef<Promise<string> | null>(null)
  /** The number as it will be dialled ("(555) 123-0000" is +15551230000 in the server's default
   * region); the tidying code loads only when a number is given, so the landing page stays
   * light. As typed when it cannot be tidied: the server has the last word. */
  const tidied = async (value: string): Promise<string> => {
    try {
      region.current ??= import('@/lib/clientConfig').then(async ({ fetchClientConfig }) => (await fetchClientConfig()).phone_region)
      const [{ tidyPhone }, phoneRegion] = await Promise.all([import('@/lib/phone'), region.current])
      return tidyPhone(value, phoneRegion) ?? value.trim()
    } catch {
      region.current = null
      return value.trim()
    }
  }
  const [phone, setPhone] = useState('')
  const [error, setError] = useState('')
  const [sending, setSending] = useState(false)
  /** After a 429: when the visitor may try again (stays on the phone, unlike the toast). */
  const [refused, setRefused] = useState('')
  /** The call's real limit, as the server places it (shown once the server has said). Read
   * through the query cache, and the config's module loaded apart: the landing's first load
   * carries neither it nor useQuery. */
  const queryClient = useQueryClient()
  const [maxMinutes, setMaxMinutes] = useState<number | null>(null)
  useEffect(() => {
    let live = true
    import('@/lib/clientConfig')
      .then(({ clientConfigQuery }) => queryClient.fetchQuery(clientConfigQuery))
      .then((config) => live && setMaxMinutes(config.test_call_max_minutes))
      .catch(() => undefined) // the line then promises no length rather than a wrong one
    return () => {
      live = false
    }
  }, [queryClient])
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (focusOnMount) input.current?.focus()
  }, [focusOnMount])

  async function submit(e: FormEvent) {
    e.preventDefault()
    const problem = landingPhoneProblem(phone)
    setError(problem)
    if (problem) {
      notify.error('Please enter a valid phone number.', 'Invalid Phone Number')
      return
    }
    setSending(true)
    setRefused('')
    onSending?.()
    try {
      const number = await tidied(phone)
      setPhone(number)
      const res = await placeTestCall(number)
      notify.success(res.message, 'Test Call Started')
      setPhone('')
      setError('')
      onPlaced?.(res.callId, res.viewerToken)
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        notify.error('Too many test call requests. Please try again later.', 'Rate Limit Exceeded')
        setRefused(err.retryAfter !== null ? retryWhen(err.retryAfter) : 'Too many test call requests. Please try again later.')
      } else if (err instanceof ApiError && err.field('phone_number')) {
        setError(err.field('phone_number')!)
        notify.error(err.field('phone_number')!, 'Invalid Phone Number')
      } else {
        notify.error(messageOf(err, 'Failed to initiate test call. Please try again.'))
      }
    } finally {
      setSending(false)
    }
  }

  return (
    <form noValidate onSubmit={submit} aria-label="Free test call" className="space-y-3">
      <label htmlFor="test-call-phone" className="block text-xs font-semibold uppercase tracking-wide text-indigo-200">
        Your phone number
      </label>
      <input
        id="test-call-phone"
        ref={input}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="+1234567890"
        value={phone}
        onChange={(e) => {
          setPhone(e.target.value)
          if (error) setError(landingPhoneProblem(e.target.value))
        }}
        onBlur={(e) => {
          const value = e.target.value
          if (value.trim() && !landingPhoneProblem(value)) void tidied(value).then((number) => setPhone((now) => (now === value ? number : now)))
        }}
        aria-invalid={!!error}
        aria-describedby={error ? 'test-call-error' : undefined}
        className="w-full rounded-xl border border-white/20 bg-white/10 px-4 py-3 text-center text-lg tracking-wide text-white placeholder:text-indigo-200/70 focus:outline-none focus:ring-2 focus:ring-white/60"
      />
      {error && (
        <p id="test-call-error" className="text-center text-sm text-rose-200">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={sending}
        className="flex w-full items-center justify-center gap-2 rounded-xl bg-emerald-400 px-4 py-3 font-semibold text-emerald-950 shadow-lg transition hover:bg-emerald-300 disabled:cursor-not-allowed disabled:opacity-70"
      >
        <PhoneCall className="h-5 w-5" aria-hidden />
        {sending ? 'Starting Test Call...' : 'Try a Free Test Call'}
      </button>
      {refused && (
        <p role="alert" className="text-center text-sm font-medium text-rose-100" data-testid="test-call-retry">
          {refused}
        </p>
      )}
      {/* One line, kept while the server's answer is awaited, so nothing moves when it comes. */}
      <p className="min-h-4 text-center text-xs text-indigo-200/80" data-testid="test-call-terms">
        {maxMinutes ? `Free, up to ${maxMinutes} minute${maxMinutes === 1 ? '' : 's'}, no sign-up.` : 'Free, no sign-up.'}
      </p>
    </form>
  )
}
