import { Mail } from 'lucide-react'
import { useEffect, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { notify } from '@/lib/toast'
import { submitContact } from './api'
import { contactPhoneProblem, emailProblem, requiredProblem } from './rules'

type Field = 'email' | 'phone' | 'message'
const EMPTY = { email: '', phone: '', message: '' }
export const SUCCESS_CLEARS_MS = 5000

function problems(v: typeof EMPTY): Record<Field, string> {
  return { email: emailProblem(v.email), phone: contactPhoneProblem(v.phone), message: requiredProblem(v.message, 'Message is required') }
}

/** "Stay in the know": the subscribe / contact form of the landing page and the blog home. */
export function SubscribeSection() {
  const [values, setValues] = useState(EMPTY)
  const [touched, setTouched] = useState<Record<Field, boolean>>({ email: false, phone: false, message: false })
  const [sending, setSending] = useState(false)
  const [success, setSuccess] = useState('')
  const [formError, setFormError] = useState('')
  const errors = problems(values)
  const invalid = Object.values(errors).some(Boolean)

  useEffect(() => {
    if (!success) return
    const timer = window.setTimeout(() => setSuccess(''), SUCCESS_CLEARS_MS)
    return () => window.clearTimeout(timer)
  }, [success])

  const change = (field: Field) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }))
    setTouched((t) => ({ ...t, [field]: true }))
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (invalid) {
      setTouched({ email: true, phone: true, message: true })
      setFormError('Please fill all required fields correctly.')
      return
    }
    setFormError('')
    setSending(true)
    try {
      const res = await submitContact({ email: values.email.trim(), phone: values.phone.trim(), message: values.message.trim() })
      const message = res.message || 'Thank you for your message!'
      notify.success(message, 'Success')
      setSuccess(message)
      setValues(EMPTY)
      setTouched({ email: false, phone: false, message: false })
    } catch (error) {
      notify.error(messageOf(error, 'An error occurred while submitting the form.'), 'Error')
    } finally {
      setSending(false)
    }
  }

  const input = 'w-full rounded-xl border bg-white/95 px-4 py-3 text-slate-900 placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-indigo-300'
  const shown = (f: Field) => (touched[f] ? errors[f] : '')

  return (
    <section id="subscribe" className="scroll-mt-24 bg-gradient-to-br from-indigo-600 via-indigo-700 to-violet-700 py-20">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
        <div className="text-white">
          <span className="inline-flex rounded-xl bg-white/15 p-3">
            <Mail className="h-6 w-6" aria-hidden />
          </span>
          <h2 className="mt-5 text-3xl font-bold tracking-tight sm:text-4xl">Stay in the know</h2>
          <p className="mt-4 max-w-md text-indigo-100">
            Product news, calling playbooks and early access to new voices. Leave your details and a note, and we will get back to you.
          </p>
        </div>
        <form noValidate onSubmit={submit} className="rounded-2xl bg-white/10 p-6 shadow-xl ring-1 ring-white/20 backdrop-blur sm:p-8" aria-label="Subscribe">
          <div className="grid gap-4">
            <div>
              <label htmlFor="subscribe-email" className="mb-1 block text-sm font-medium text-indigo-50">
                Email
              </label>
              <input id="subscribe-email" type="email" autoComplete="email" placeholder="you@company.com" value={values.email} onChange={change('email')} onBlur={() => setTouched((t) => ({ ...t, email: true }))} aria-invalid={!!shown('email')} className={cn(input, shown('email') ? 'border-rose-400' : 'border-transparent')} />
              {shown('email') && <p className="mt-1 text-sm text-rose-200">{shown('email')}</p>}
            </div>
            <div>
              <label htmlFor="subscribe-phone" className="mb-1 block text-sm font-medium text-indigo-50">
                Phone
              </label>
              <input id="subscribe-phone" type="tel" autoComplete="tel" placeholder="+1 555 010 0100" value={values.phone} onChange={change('phone')} onBlur={() => setTouched((t) => ({ ...t, phone: true }))} aria-invalid={!!shown('phone')} className={cn(input, shown('phone') ? 'border-rose-400' : 'border-transparent')} />
              {shown('phone') && <p className="mt-1 text-sm text-rose-200" data-testid="phone-error">{shown('phone')}</p>}
            </div>
            <div>
              <label htmlFor="subscribe-message" className="mb-1 block text-sm font-medium text-indigo-50">
                Message
              </label>
              <textarea id="subscribe-message" rows={3} placeholder="What would you like to hear about?" value={values.message} onChange={change('message')} onBlur={() => setTouched((t) => ({ ...t, message: true }))} aria-invalid={!!shown('message')} className={cn(input, 'resize-none', shown('message') ? 'border-rose-400' : 'border-transparent')} />
              {shown('message') && <p className="mt-1 text-sm text-rose-200">{shown('message')}</p>}
            </div>
            {formError && <p role="alert" className="text-sm font-medium text-rose-200">{formError}</p>}
            {success && <p role="status" className="rounded-lg bg-emerald-500/20 px-3 py-2 text-sm font-medium text-emerald-50">{success}</p>}
            <Button type="submit" size="lg" variant="secondary" disabled={invalid || sending} className="w-full">
              {sending ? 'Submitting...' : 'Subscribe Now'}
            </Button>
          </div>
        </form>
      </div>
    </section>
  )
}
