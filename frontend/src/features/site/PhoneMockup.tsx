import { Bot } from 'lucide-react'
import { useState } from 'react'
import { cn } from '@/lib/cn'
import { TestCallForm } from './TestCallForm'
import type { TestCallLive } from './TestCallLive'
import type { Phase } from './testCallView'

/** The live call view comes with socket.io: loaded when a test call starts, never with the page. */
const loadLive = () => import('./TestCallLive')

const BARS = [10, 22, 14, 28, 18, 26, 12, 20, 9]

/** The landing's phone: the free test call's form, then that call as it happens. */
export function PhoneMockup() {
  const [call, setCall] = useState<{ callId: string; secret: string } | null>(null)
  const [Live, setLive] = useState<typeof TestCallLive | null>(null)
  const [unloaded, setUnloaded] = useState(false)
  const [phase, setPhase] = useState<Phase | null>(null)
  const [again, setAgain] = useState(false)
  const talking = call !== null && phase === 'connected'
  return (
    <div className="relative mx-auto w-full max-w-[320px]" data-testid="phone-mockup">
      <div className="relative rounded-[2.75rem] bg-slate-900 p-3 shadow-2xl ring-1 ring-slate-800">
        <div aria-hidden className="absolute left-1/2 top-3 z-10 h-6 w-28 -translate-x-1/2 rounded-b-2xl bg-slate-900" />
        <div className="overflow-hidden rounded-[2.2rem] bg-gradient-to-b from-indigo-600 via-indigo-700 to-slate-900 px-6 pb-8 pt-12">
          <div className="text-center text-white">
            <div className="relative mx-auto flex h-20 w-20 items-center justify-center rounded-full bg-white/15 ring-4 ring-white/10">
              {call && phase !== 'connected' && phase !== 'ended' && <span aria-hidden className="absolute inset-0 rounded-full bg-white/20 motion-safe:animate-ping" />}
              <Bot className="h-10 w-10" aria-hidden />
            </div>
            <p className="mt-4 text-lg font-semibold">Callwright Agent</p>
            {!call && <p className="text-sm text-indigo-200">Ready to call you</p>}
            <div aria-hidden className="mx-auto mt-5 flex h-8 items-end justify-center gap-1">
              {BARS.map((h, i) => (
                <span
                  key={i}
                  className={cn('w-1.5 rounded-full bg-emerald-300/80', talking && 'motion-safe:animate-pulse')}
                  style={{ height: h, animationDelay: talking ? `${i * 90}ms` : undefined }}
                />
              ))}
            </div>
          </div>
          <div className="mt-6">
            {call && Live ? (
              <Live
                callId={call.callId}
                secret={call.secret}
                onPhase={setPhase}
                onAgain={() => {
                  setAgain(true)
                  setPhase(null)
                  setCall(null)
                }}
              />
            ) : call ? (
              <p role="status" className="text-center text-sm font-semibold text-white">
                {unloaded ? "Your phone is ringing, but the call's progress cannot be shown here." : 'Ringing...'}
              </p>
            ) : (
              <TestCallForm
                onSending={() => {
                  loadLive()
                    .then((module) => setLive(() => module.TestCallLive))
                    .catch(() => setUnloaded(true))
                }}
                onPlaced={(callId, secret) => setCall({ callId, secret })}
                focusOnMount={again}
              />
            )}
          </div>
        </div>
      </div>
    </div>
  )
}
