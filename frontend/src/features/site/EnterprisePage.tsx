import { Check, Clock, Headphones, Phone, Percent, Wrench } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { ApiError, messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { notify } from '@/lib/toast'
import { submitEnterprise } from './api'
import { enterpriseProblems, type EnterpriseForm } from './rules'
import { SALES_PHONE } from './SiteLayout'
import { usePublicForm } from './usePublicForm'
import { MAIN_ID } from '@/components/SkipLink'

const EMPTY: EnterpriseForm = { name: '', email: '', website: '', use_case: '', phone_calls_per_month: '', applicant_type: '', message: '' }
type Key = keyof EnterpriseForm

const PROMISES = [
  { icon: Clock, text: 'We contact you within 24 hours' },
  { icon: Wrench, text: 'Custom AI agent development' },
  { icon: Percent, text: 'Volume discounts' },
  { icon: Headphones, text: 'A dedicated account manager' },
]

export function EnterprisePage() {
  const { values, sending, success, formError, change: set, blur, shown, submit } = usePublicForm({
    empty: EMPTY,
    validate: enterpriseProblems,
    invalidMessage: 'Please fill all required fields correctly, including a valid applicant type.',
    send: async (v) => {
      const res = await submitEnterprise({
        name: v.name.trim(),
        email: v.email.trim(),
        website: v.website.trim(),
        use_case: v.use_case.trim(),
        phone_calls_per_month: Math.floor(Number(v.phone_calls_per_month)),
        entity_type: v.applicant_type,
        message: v.message.trim(),
      })
      const message = res.message || 'Thank you for your application!'
      notify.success(message)
      return message
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422 && Object.keys(error.errors).length) {
        notify.error(`Validation failed: ${Object.values(error.errors).flat().join('; ')}`)
      } else {
        notify.error(messageOf(error, 'An error occurred while submitting the form.'))
      }
    },
  })

  const field = (key: Key) =>
    cn(
      'w-full rounded-xl border px-4 py-2.5 text-slate-900 placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-indigo-200',
      shown(key) ? 'border-rose-400' : 'border-slate-300',
    )
  const label = 'mb-1 block text-sm font-medium text-slate-700'
  const err = (key: Key) => shown(key) && <p className="mt-1 text-sm text-rose-600">{shown(key)}</p>

  return (
    <main id={MAIN_ID} tabIndex={-1} className="bg-gradient-to-b from-indigo-50 to-white pb-20 pt-28 sm:pt-36">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold uppercase tracking-wider text-indigo-600">Enterprise</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900">Contact Our Enterprise Team</h1>
          <p className="mt-4 text-lg text-slate-600">Tell us about your calling volume and use case; we will shape a plan, a price and an agent around it.</p>
        </div>
        <div className="mt-10 grid gap-8 lg:grid-cols-[1.6fr_1fr]">
          <form noValidate onSubmit={submit} aria-label="Enterprise application" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
            <div className="grid gap-5 sm:grid-cols-2">
              <div>
                <label htmlFor="ent-name" className={label}>Name</label>
                <input id="ent-name" autoComplete="name" value={values.name} onChange={set('name')} onBlur={blur('name')} className={field('name')} aria-invalid={!!shown('name')} />
                {err('name')}
              </div>
              <div>
                <label htmlFor="ent-email" className={label}>Email</label>
                <input id="ent-email" type="email" autoComplete="email" value={values.email} onChange={set('email')} onBlur={blur('email')} className={field('email')} aria-invalid={!!shown('email')} />
                {err('email')}
              </div>
              <div>
                <label htmlFor="ent-website" className={label}>Website</label>
                <input id="ent-website" type="url" placeholder="https://" value={values.website} onChange={set('website')} onBlur={blur('website')} className={field('website')} aria-invalid={!!shown('website')} />
                {err('website')}
              </div>
              <div>
                <label htmlFor="ent-calls" className={label}>Phone calls per month</label>
                <input id="ent-calls" inputMode="numeric" placeholder="At least 25" value={values.phone_calls_per_month} onChange={set('phone_calls_per_month')} onBlur={blur('phone_calls_per_month')} className={field('phone_calls_per_month')} aria-invalid={!!shown('phone_calls_per_month')} />
                {err('phone_calls_per_month')}
              </div>
              <div className="sm:col-span-2">
                <label htmlFor="ent-use-case" className={label}>Use case</label>
                <input id="ent-use-case" placeholder="Appointment reminders, lead qualification..." value={values.use_case} onChange={set('use_case')} onBlur={blur('use_case')} className={field('use_case')} aria-invalid={!!shown('use_case')} />
                {err('use_case')}
              </div>
              <fieldset className="sm:col-span-2">
                <legend className={label}>You are applying as</legend>
                <div className="flex gap-3">
                  {(['agency', 'individual'] as const).map((type) => (
                    <label key={type} className={cn('flex cursor-pointer items-center gap-2 rounded-xl border px-4 py-2.5 text-sm capitalize', values.applicant_type === type ? 'border-indigo-500 bg-indigo-50 text-indigo-800' : 'border-slate-300 text-slate-700')}>
                      <input type="radio" name="applicant_type" value={type} checked={values.applicant_type === type} onChange={set('applicant_type')} className="accent-indigo-600" />
                      {type === 'agency' ? 'Agency' : 'Individual'}
                    </label>
                  ))}
                </div>
                {err('applicant_type')}
              </fieldset>
              <div className="sm:col-span-2">
                <label htmlFor="ent-message" className={label}>Message</label>
                <textarea id="ent-message" rows={4} value={values.message} onChange={set('message')} onBlur={blur('message')} className={cn(field('message'), 'resize-y')} aria-invalid={!!shown('message')} />
                {err('message')}
              </div>
            </div>
            {formError && <p role="alert" className="mt-5 text-sm font-medium text-rose-600">{formError}</p>}
            {success && <p role="status" className="mt-5 rounded-lg bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-800">{success}</p>}
            <Button type="submit" size="lg" className="mt-6 w-full sm:w-auto" disabled={sending}>
              {sending ? 'Submitting...' : 'Submit Application'}
            </Button>
          </form>
          <aside className="h-fit rounded-2xl bg-slate-900 p-8 text-slate-300">
            <h2 className="text-xl font-semibold text-white">What you get</h2>
            <ul className="mt-6 space-y-4">
              {PROMISES.map((p) => (
                <li key={p.text} className="flex items-center gap-3">
                  <span className="rounded-lg bg-white/10 p-2 text-indigo-300">
                    <p.icon className="h-5 w-5" aria-hidden />
                  </span>
                  {p.text}
                </li>
              ))}
            </ul>
            <div className="mt-8 border-t border-white/10 pt-6">
              <p className="text-sm">Prefer to talk? Call sales:</p>
              <a href={`tel:${SALES_PHONE.replace(/[^\d+]/g, '')}`} className="mt-2 inline-flex items-center gap-2 text-lg font-semibold text-white hover:text-indigo-300">
                <Phone className="h-5 w-5" aria-hidden /> {SALES_PHONE}
              </a>
            </div>
            <p className="mt-6 flex items-center gap-2 text-sm text-slate-400">
              <Check className="h-4 w-4 text-emerald-400" aria-hidden /> No commitment until you sign.
            </p>
          </aside>
        </div>
      </div>
    </main>
  )
}
