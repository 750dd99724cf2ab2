import { ArrowRight, AudioLines, PhoneOutgoing, ReceiptText } from 'lucide-react'
import { Link } from 'react-router'
import { Logo } from '@/components/Logo'
import { Button } from '@/components/ui/button'
import { getUser, homeFor, isLoggedIn } from '@/lib/session'

const FEATURES = [
  { icon: PhoneOutgoing, title: 'Outbound calls on autopilot', text: 'Write a prompt, pick a voice and a number. The agent places the call and holds the conversation.' },
  { icon: AudioLines, title: 'Live transcripts', text: 'Watch every line of the conversation appear while the call is happening.' },
  { icon: ReceiptText, title: 'Pay per minute', text: 'A prepaid balance at $0.49 per minute, recordings and transcripts included.' },
]

/** The public front door (the full marketing site grows here). */
export function HomePage() {
  const signedIn = isLoggedIn()
  const home = homeFor(getUser()?.role)
  return (
    <div className="min-h-dvh bg-white">
      <header className="mx-auto flex h-20 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Logo />
        <nav className="flex items-center gap-2">
          {signedIn ? (
            <Button asChild>
              <Link to={home}>Open dashboard</Link>
            </Button>
          ) : (
            <>
              <Button asChild variant="ghost">
                <Link to="/login">Log in</Link>
              </Button>
              <Button asChild>
                <Link to="/register">Get Started</Link>
              </Button>
            </>
          )}
        </nav>
      </header>
      <main>
        <section className="relative overflow-hidden">
          <div aria-hidden className="absolute inset-x-0 top-0 -z-0 h-[520px] bg-gradient-to-b from-indigo-50 to-white" />
          <div className="relative mx-auto max-w-4xl px-4 pb-16 pt-16 text-center sm:px-6 sm:pt-24">
            <p className="mx-auto w-fit rounded-full bg-indigo-100 px-3 py-1 text-xs font-semibold text-indigo-700">
              AI voice agents for outbound calling
            </p>
            <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl">
              Your calls, made by an agent that <span className="text-indigo-600">never gets tired</span>.
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
              Callwright places outbound calls with your prompt and your chosen voice, records and transcribes every
              conversation, and bills per minute against a prepaid balance.
            </p>
            <div className="mt-10 flex flex-wrap justify-center gap-3">
              <Button asChild size="lg">
                <Link to={signedIn ? home : '/register'}>
                  Get Started <ArrowRight className="h-4 w-4" aria-hidden />
                </Link>
              </Button>
              {!signedIn && (
                <Button asChild size="lg" variant="secondary">
                  <Link to="/login">Log in</Link>
                </Button>
              )}
            </div>
            <p className="mt-6 text-sm text-slate-500">Trusted by 2,000+ businesses · 99.99% uptime · 30+ languages</p>
          </div>
        </section>
        <section className="mx-auto grid max-w-6xl gap-6 px-4 pb-24 sm:grid-cols-3 sm:px-6">
          {FEATURES.map((f) => (
            <div key={f.title} className="rounded-2xl border border-slate-200 p-6">
              <span className="inline-flex rounded-xl bg-indigo-50 p-3 text-indigo-600">
                <f.icon className="h-6 w-6" aria-hidden />
              </span>
              <h2 className="mt-4 font-semibold text-slate-900">{f.title}</h2>
              <p className="mt-2 text-sm text-slate-600">{f.text}</p>
            </div>
          ))}
        </section>
      </main>
      <footer className="border-t border-slate-200 py-8 text-center text-sm text-slate-500">
        © {new Date().getFullYear()} Callwright. Official launch June 27th, 2025.
      </footer>
    </div>
  )
}
