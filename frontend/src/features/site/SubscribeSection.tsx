import { Mail } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { notify } from '@/lib/toast'
import { submitContact } from './api'
import { contactPhoneProblem, emailProblem, requiredProblem } from './rules'
import { usePublicForm } from './usePublicForm'

type Field = 'email' | 'phone' | 'message'
const EMPTY: Record<Field, string> = { email: '', phone: '', message: '' }

function problems(v: Record<Field, string>): Record<Field, string> {
  return { email: emailProblem(v.email), phone: contactPhoneProblem(v.phone), message: requiredProblem(v.message, 'Message is required') }
}

/** "Stay in the know": the subscribe / contact form of the landing page and the blog home. */
export function SubscribeSection() {
  const { values, sending, success, formError, change, blur, shown, submit } = usePublicForm({
    empty: EMPTY,
    validate: problems,
    invalidMessage: 'Please fill all required fields correctly.',
    send: async (v) => {
      const res = await submitContact({ email: v.email.trim(), phone: v.phone.trim(), message: v.message.trim() })
      const message = res.message || 'Thank you for your message!'
      notify.success(message, 'Success')
      return message
    },
    onError: (error) => notify.error(messageOf(error, 'An error occurred while submitting the form.'), 'Error'),
  })

  const input = 'w-full rounded-xl border bg-white/95 px-4 py-3 text-slate-900 placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-indigo-300'

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
              <input id="subscribe-email" type="email" autoComplete="email" placeholder="you@company.com" value={values.email} onChange={change('email')} onBlur={blur('email')} aria-invalid={!!shown('email')} className={cn(input, shown('email') ? 'border-rose-400' : 'border-transparent')} />
              {shown('email') && <p className="mt-1 text-sm text-rose-200">{shown('email')}</p>}
            </div>
            <div>
              <label htmlFor="subscribe-phone" className="mb-1 block text-sm font-medium text-indigo-50">
                Phone
              </label>
              <input id="subscribe-phone" type="tel" autoComplete="tel" placeholder="+1 555 010 0100" value={values.phone} onChange={change('phone')} onBlur={blur('phone')} aria-invalid={!!shown('phone')} className={cn(input, shown('phone') ? 'border-rose-400' : 'border-transparent')} />
              {shown('phone') && <p className="mt-1 text-sm text-rose-200" data-testid="phone-error">{shown('phone')}</p>}
            </div>
            <div>
              <label htmlFor="subscribe-message" className="mb-1 block text-sm font-medium text-indigo-50">
                Message
              </label>
              <textarea id="subscribe-message" rows={3} placeholder="What would you like to hear about?" value={values.message} onChange={change('message')} onBlur={blur('message')} aria-invalid={!!shown('message')} className={cn(input, 'resize-none', shown('message') ? 'border-rose-400' : 'border-transparent')} />
              {shown('message') && <p className="mt-1 text-sm text-rose-200">{shown('message')}</p>}
            </div>
            {formError && <p role="alert" className="text-sm font-medium text-rose-200">{formError}</p>}
            {success && <p role="status" className="rounded-lg bg-emerald-500/20 px-3 py-2 text-sm font-medium text-emerald-50">{success}</p>}
            <Button type="submit" size="lg" variant="secondary" disabled={sending} className="w-full">
              {sending ? 'Submitting...' : 'Subscribe Now'}
            </Button>
          </div>
        </form>
      </div>
    </section>
  )
}
