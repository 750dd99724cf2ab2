import {
  ArrowRight,
  BarChart3,
  Bot,
  CalendarClock,
  Check,
  Clock,
  FileAudio,
  Globe2,
  Languages,
  Layers,
  MessageSquareText,
  PhoneIncoming,
  ShieldCheck,
  Sparkles,
  TrendingUp,
  Wallet,
} from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { DemoCall } from './DemoCall'
import { SubscribeSection } from './SubscribeSection'
import { PhoneMockup } from './PhoneMockup'
import { useSectionLink } from './useSectionLink'
import { languageClaim } from './offeredLanguages'
import { BILLING_RULE, BILLING_UNIT, PRICE_PER_MINUTE, PRICE_PER_MINUTE_CENTS } from '@/lib/billing'
import { cn } from '@/lib/cn'
import { MAIN_ID } from '@/components/SkipLink'

/** Measured: the languages that passed the offline speech benchmark (docs/voice-engine.md). */
const LANGUAGES = languageClaim()
const HEADLINES = ['qualify your leads', 'confirm appointments', 'follow up on quotes', 'win back customers']
/** What a screen reader reads for the typing headline, once. */
const HEADLINE_READ = `AI agents that call your customers to ${HEADLINES.slice(0, -1).join(', ')} and ${HEADLINES[HEADLINES.length - 1]}`

/** Types each phrase, holds it, deletes it, then the next (a static phrase for reduced motion). */
function useTyping(phrases: string[]): string {
  const [text, setText] = useState(phrases[0])
  useEffect(() => {
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return
    let index = 0
    let length = phrases[0].length
    let deleting = true
    let timer = 0
    const tick = () => {
      if (deleting) {
        length -= 1
        if (length === 0) {
          deleting = false
          index = (index + 1) % phrases.length
        }
      } else {
        length += 1
      }
      const current = phrases[index]
      setText(current.slice(0, length))
      const done = !deleting && length === current.length
      if (done) deleting = true
      timer = window.setTimeout(tick, done ? 2200 : deleting ? 35 : 70)
    }
    timer = window.setTimeout(tick, 2600)
    return () => window.clearTimeout(timer)
  }, [phrases])
  return text
}

function Hero() {
  const typed = useTyping(HEADLINES)
  const goTo = useSectionLink()
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-white pb-20 pt-32 sm:pt-40">
      <div aria-hidden className="pointer-events-none absolute -right-40 -top-40 h-[480px] w-[480px] rounded-full bg-indigo-200/50 blur-3xl" />
      <div aria-hidden className="pointer-events-none absolute -left-32 top-40 h-[360px] w-[360px] rounded-full bg-violet-200/40 blur-3xl" />
      <div className="relative mx-auto grid max-w-7xl items-center gap-14 px-4 sm:px-6 lg:grid-cols-[1.15fr_1fr] lg:px-8">
        <div className="text-center lg:text-left">
          <p className="mx-auto inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-xs font-semibold text-indigo-700 shadow-sm ring-1 ring-indigo-100 lg:mx-0">
            <Sparkles className="h-3.5 w-3.5" aria-hidden /> AI voice agents for outbound calling
          </p>
          <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl xl:text-6xl">
            {/* Read once, whole; the typing below is for the eyes only (never re-announced). */}
            <span className="sr-only">{HEADLINE_READ}</span>
            <span aria-hidden>
              AI agents that call your customers to{' '}
              <span className="block min-h-[1.2em] text-indigo-600" data-testid="typed-headline">
                {typed}
                <span className="ml-0.5 inline-block w-[3px] animate-pulse bg-indigo-600 align-middle" style={{ height: '0.9em' }} />
              </span>
            </span>
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg text-slate-600 lg:mx-0">
            Write a prompt, pick a voice and enter a number. Callwright places the call, holds a natural conversation, and hands you the transcript, the recording and the
            bill the moment it ends.
          </p>
          <div className="mt-9 flex flex-wrap justify-center gap-3 lg:justify-start">
            <Button size="lg" asChild>
              <Link to="/register">
                Get Started <ArrowRight className="h-4 w-4" aria-hidden />
              </Link>
            </Button>
            <Button size="lg" variant="secondary" onClick={() => goTo('enterprise')}>
              Contact Sales
            </Button>
          </div>
          <p className="mt-8 flex flex-wrap items-center justify-center gap-x-5 gap-y-2 text-sm text-slate-500 lg:justify-start">
            <span className="inline-flex items-center gap-1.5">
              <Wallet className="h-4 w-4 text-indigo-500" aria-hidden /> {BILLING_RULE}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <ShieldCheck className="h-4 w-4 text-indigo-500" aria-hidden /> Every answered call recorded and transcribed
            </span>
            <span className="inline-flex items-center gap-1.5">
              <Languages className="h-4 w-4 text-indigo-500" aria-hidden /> {LANGUAGES.short}
            </span>
          </p>
        </div>
        <PhoneMockup />
      </div>
    </section>
  )
}

const WHAT = [
  { icon: PhoneIncoming, title: 'Calls that sound human', text: 'Natural voices, one-to-two-sentence replies and real turn-taking: the agent stops the moment someone talks over it.' },
  { icon: MessageSquareText, title: 'Every word, live', text: 'Follow the conversation line by line while it happens, then keep the transcript, the stereo recording and an analysis.' },
  { icon: Wallet, title: 'Pay for minutes, not seats', text: `${BILLING_RULE}. The maximum cost is reserved before dialling, so you never overspend.` },
]
/** Figures the product can stand behind: measured by the benchmarks that ship with it
 * (docs/performance.md) or set by its billing rule. */
const IMPACT = [
  { value: '0.9 s', label: 'median reply time, measured' },
  { value: '6%', label: 'word error on phone audio, measured' },
  { value: PRICE_PER_MINUTE, label: BILLING_UNIT },
  { value: LANGUAGES.value, label: LANGUAGES.label },
]

function WhatIs() {
  return (
    <section id="what" className="scroll-mt-24 py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHead kicker="What is Callwright" title="An outbound calling team that never gets tired" text="Give it a goal and a list of numbers. It handles the conversations and reports back with everything you need." />
        <div className="mt-12 grid gap-6 md:grid-cols-3">
          {WHAT.map((f) => (
            <div key={f.title} className="rounded-2xl border border-slate-200 bg-white p-7 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md">
              <span className="inline-flex rounded-xl bg-indigo-50 p-3 text-indigo-600">
                <f.icon className="h-6 w-6" aria-hidden />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{f.title}</h3>
              <p className="mt-2 text-slate-600">{f.text}</p>
            </div>
          ))}
        </div>
        <div className="mt-12 rounded-2xl bg-slate-900 p-8 text-center">
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            {IMPACT.map((s) => (
              <div key={s.label}>
                <dt className="sr-only">{s.label}</dt>
                <dd className="text-3xl font-extrabold text-white sm:text-4xl">{s.value}</dd>
                <dd className="mt-1 text-sm text-slate-400">{s.label}</dd>
              </div>
            ))}
          </dl>
          <p className="mx-auto mt-6 max-w-3xl text-xs text-slate-400" data-testid="impact-source">
            Reply time: from the callee&apos;s last word to the agent&apos;s first sound, as the callee hears it, over sandbox calls on a 2-core server with the offline speech
            engines. Word error: the offline speech-to-text on the sandbox callees' lines through 8 kHz phone audio. Both measured by the benchmarks that ship with Callwright (docs/performance.md).
          </p>
        </div>
      </div>
    </section>
  )
}

function SectionHead({ kicker, title, text }: { kicker: string; title: string; text?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold uppercase tracking-wider text-indigo-600">{kicker}</p>
      <h2 className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h2>
      {text && <p className="mt-4 text-lg text-slate-600">{text}</p>}
    </div>
  )
}

function HowItWorks() {
  const steps = [
    { n: 1, title: 'Customize Your Agent', text: 'Describe who the agent is, why it calls and what a good outcome is. Choose a voice, how patient it is with interruptions and how long a call may last.' },
    { n: 2, title: 'Deploy & Scale', text: 'Enter a number and send. Watch the live transcript, stop any call, and find every recording, transcript and cost in your call logs.' },
  ]
  return (
    <section id="how-it-works" className="scroll-mt-24 bg-slate-50 py-20">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
        <DemoCall />
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-indigo-600">How it Works</p>
          <h2 className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">From prompt to phone call in two steps</h2>
          <ol className="mt-8 space-y-6">
            {steps.map((s) => (
              <li key={s.n} className="flex gap-4">
                <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-indigo-600 font-bold text-white">{s.n}</span>
                <div>
                  <h3 className="text-lg font-semibold text-slate-900">
                    Step {s.n}: {s.title}
                  </h3>
                  <p className="mt-1 text-slate-600">{s.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  )
}

const FEATURES = [
  { icon: Bot, title: 'Prompt-driven agents', text: 'Plain-language instructions, no call trees.' },
  { icon: MessageSquareText, title: 'Live transcripts', text: 'Agent and callee lines as they are spoken.' },
  { icon: FileAudio, title: 'Stereo recordings', text: 'Play in the browser or download as MP3.' },
  { icon: BarChart3, title: 'Call analytics', text: 'Success, duration and spend by weekday.' },
  { icon: Clock, title: 'Turn-taking', text: 'Tunable interruption tolerance and greeting wait.' },
  { icon: Globe2, title: 'Many voices', text: 'Natural voices with a sample before you choose.' },
  { icon: CalendarClock, title: 'Voicemail handling', text: 'Leaves a short message or hangs up, your call.' },
  { icon: Layers, title: 'Carrier-ready', text: 'Runs on a built-in sandbox, Twilio in production.' },
]

function Features() {
  return (
    <section id="features" className="scroll-mt-24 py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHead kicker="Features" title="Everything a calling team needs" />
        <div className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((f) => (
            <div key={f.title} className="rounded-2xl border border-slate-200 p-6">
              <f.icon className="h-6 w-6 text-indigo-600" aria-hidden />
              <h3 className="mt-4 font-semibold text-slate-900">{f.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{f.text}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}

/** A plan is a top-up of the prepaid balance: every account has every feature, and every minute
 * costs the same. Buying one opens the billing page with the amount filled in (signed-out
 * visitors sign in or register first). */
const TOP_UPS = [
  { name: 'Try it', amount: 10, text: 'Enough to test an agent on your own numbers.' },
  { name: 'Regular', amount: 25, text: 'For a first campaign or a few days of calls.', featured: true },
  { name: 'Volume', amount: 100, text: 'For steady calling from campaigns or the API.' },
]
const EVERY_PLAN = ['Agents, campaigns and the REST API', 'Recordings, transcripts and call analysis', 'Do-not-call lists and calling hours', 'Funds never expire']

const minutesFor = (dollars: number) => Math.floor((dollars * 100) / PRICE_PER_MINUTE_CENTS)

function Pricing() {
  return (
    <section id="pricing" className="scroll-mt-24 bg-slate-50 py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHead
          kicker="Pricing"
          title="Prepaid minutes, no subscription"
          text={`Add funds to your balance: ${BILLING_RULE}. Every top-up gets every feature.`}
        />
        <div className="mt-12 grid gap-6 lg:grid-cols-4">
          {TOP_UPS.map((p) => (
            <div
              key={p.name}
              data-testid={`plan-${p.amount}`}
              className={cn('relative flex flex-col rounded-2xl bg-white p-8 shadow-sm ring-1', p.featured ? 'ring-2 ring-indigo-600 lg:-translate-y-2 lg:shadow-xl' : 'ring-slate-200')}
            >
              <h3 className="text-lg font-semibold text-slate-900">{p.name}</h3>
              <p className="mt-4 flex items-baseline gap-2">
                <span className="text-4xl font-extrabold text-slate-900">${p.amount}</span>
                <span className="text-slate-500">top-up</span>
              </p>
              <p className="mt-2 text-sm font-medium text-indigo-700">About {minutesFor(p.amount)} minutes of calls</p>
              <p className="mt-4 flex-1 text-sm text-slate-600">{p.text}</p>
              <Button asChild className="mt-8" variant={p.featured ? 'primary' : 'secondary'}>
                <Link to={`/dashboard/billing?amount=${p.amount}`}>Add ${p.amount}</Link>
              </Button>
            </div>
          ))}
          <div data-testid="plan-enterprise" className="relative flex flex-col rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
            <h3 className="text-lg font-semibold text-slate-900">Enterprise</h3>
            <p className="mt-4 flex items-baseline gap-2">
              <span className="text-4xl font-extrabold text-slate-900">Custom</span>
              <span className="text-slate-500">pricing</span>
            </p>
            <p className="mt-4 flex-1 text-sm text-slate-600">Calling thousands of numbers a month? Tell us your volume and we will talk about a price for it.</p>
            <Button asChild className="mt-8" variant="secondary">
              <Link to="/enterprise">Contact Sales</Link>
            </Button>
          </div>
        </div>
        <div className="mt-10 rounded-2xl border border-slate-200 bg-white p-6">
          <h3 className="text-sm font-semibold text-slate-900">Every top-up includes</h3>
          <ul className="mt-3 grid gap-2 text-sm text-slate-700 sm:grid-cols-2 lg:grid-cols-4">
            {EVERY_PLAN.map((item) => (
              <li key={item} className="flex gap-2">
                <Check className="mt-0.5 h-4 w-4 shrink-0 text-indigo-600" aria-hidden /> {item}
              </li>
            ))}
          </ul>
          <p className="mt-4 text-sm text-slate-500">
            Before each call the most it can cost is reserved, and what it did not use is released when it ends. New here?{' '}
            <Link to="/register" className="font-medium text-indigo-600 hover:underline">
              Create an account
            </Link>{' '}
            first; a signed-out visitor who picks a top-up is asked to log in.
          </p>
        </div>
      </div>
    </section>
  )
}

function EnterpriseCta() {
  return (
    <section id="enterprise" className="scroll-mt-24 py-20">
      <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
        <div className="flex flex-col items-center gap-6 rounded-3xl bg-slate-900 px-8 py-12 text-center sm:px-12 md:flex-row md:text-left">
          <TrendingUp className="h-12 w-12 shrink-0 text-indigo-400" aria-hidden />
          <div className="flex-1">
            <h2 className="text-2xl font-bold text-white sm:text-3xl">Calling at scale?</h2>
            <p className="mt-2 text-slate-300">Tell us how many calls you make and what they are for, and we will talk about a price for your volume.</p>
          </div>
          <Button asChild size="lg">
            <Link to="/enterprise">Contact Sales</Link>
          </Button>
        </div>
      </div>
    </section>
  )
}

/** The public landing page (/). */
export function HomePage() {
  return (
    <main id={MAIN_ID} tabIndex={-1}>
      <Hero />
      <WhatIs />
      <HowItWorks />
      <Features />
      <Pricing />
      <SubscribeSection />
      <EnterpriseCta />
    </main>
  )
}
