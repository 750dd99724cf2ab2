import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Logo } from '@/components/Logo'
import { MAIN_ID, SkipLink } from '@/components/SkipLink'
import { BILLING_RULE } from '@/lib/billing'

export const CONTACT_EMAIL = 'hello@callwright.app'

/** Under the sign-in card: where to write (the launch's "early birds" note was dated). */
export function ContactNotice() {
  return (
    <p className="text-xs leading-relaxed text-slate-500">
      Questions? Write to{' '}
      <a className="font-medium text-indigo-600 underline underline-offset-2" href={`mailto:${CONTACT_EMAIL}`}>
        {CONTACT_EMAIL}
      </a>
      .
    </p>
  )
}

const POINTS = [
  ['Write a prompt, pick a voice', 'Your agent follows your script in natural conversation.'],
  ['Watch every call live', 'Transcripts stream in while the call happens.'],
  ['Pay per minute', `${BILLING_RULE}.`],
] as const

/** Split layout for sign-in screens: brand panel on wide screens, the form card beside it. */
export function AuthShell({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh bg-slate-50">
      <SkipLink />
      <aside className="relative hidden w-[44%] overflow-hidden bg-gradient-to-br from-indigo-700 via-indigo-600 to-violet-600 p-12 text-white lg:flex lg:flex-col lg:justify-between">
        <svg aria-hidden className="absolute -right-24 -top-24 h-96 w-96 opacity-20" viewBox="0 0 200 200">
          <circle cx="100" cy="100" r="60" fill="none" stroke="white" strokeWidth="1" />
          <circle cx="100" cy="100" r="80" fill="none" stroke="white" strokeWidth="1" />
          <circle cx="100" cy="100" r="98" fill="none" stroke="white" strokeWidth="1" />
        </svg>
        <Link to="/" className="relative w-fit">
          <Logo light />
        </Link>
        <div className="relative max-w-md">
          <h2 className="text-3xl font-bold leading-tight">AI voice agents that place your outbound calls.</h2>
          <ul className="mt-8 space-y-5">
            {POINTS.map(([head, text]) => (
              <li key={head} className="flex gap-3">
                <span className="mt-1 h-2 w-2 flex-none rounded-full bg-indigo-200" />
                <span>
                  <span className="block font-semibold">{head}</span>
                  <span className="text-sm text-indigo-100">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-sm text-indigo-100">Every answered call recorded and transcribed</p>
      </aside>
      <main id={MAIN_ID} tabIndex={-1} className="flex flex-1 items-center justify-center px-4 py-10 sm:px-8">
        <div className="w-full max-w-md">
          <Link to="/" className="mb-8 inline-block lg:hidden">
            <Logo />
          </Link>
          <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
            <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
            <p className="mt-1 text-sm text-slate-500">{subtitle}</p>
            <div className="mt-6">{children}</div>
          </div>
          <div className="mt-6 px-1">
            <ContactNotice />
          </div>
        </div>
      </main>
    </div>
  )
}
