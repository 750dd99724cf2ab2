/** The visitor's test call as it happens, inside the landing's phone mockup: ringing, connected
 * with a timer, the transcript as chat bubbles, ended with how. Loaded (with socket.io) only when
 * a test call starts, so the landing page's first load carries none of it. */
import { useEffect, useMemo, useReducer, useRef, useState } from 'react'
import { Link } from 'react-router'
import { orderedLines } from '@/components/calls/liveTranscript'
import { cn } from '@/lib/cn'
import { formatTimer } from '@/lib/format'
import { watchTestCall } from '@/lib/realtime'
import { callReducer, placedCall, type CallView, type Phase } from './testCallView'

/** Seconds since `start` (ms), ticking each second; 0 without a start. */
function useSecondsSince(start: number | null): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (start === null) return
    const tick = () => setNow(Date.now())
    tick()
    const timer = window.setInterval(tick, 1000)
    return () => window.clearInterval(timer)
  }, [start])
  return start === null ? 0 : Math.max(0, (now - start) / 1000)
}

/** Follows the call on a visitor socket of its own until the call has ended. */
function useTestCall(callId: string, secret: string): CallView {
  const [view, dispatch] = useReducer(callReducer, callId, placedCall)
  const live = view.phase !== 'ended'
  useEffect(() => {
    if (!live) return
    return watchTestCall(callId, secret, {
      onWebhookEvent: (event) => dispatch({ type: 'event', event, now: Date.now() }),
      onCaption: (event) => dispatch({ type: 'caption', event, now: Date.now() }),
      onState: (state) => dispatch({ type: 'state', state, now: Date.now() }),
      onError: () => dispatch({ type: 'lost' }),
    })
  }, [live, callId, secret])
  return view
}

function Transcript({ view }: { view: CallView }) {
  const list = useRef<HTMLOListElement>(null)
  const lines = useMemo(() => orderedLines(view.transcript), [view.transcript])
  useEffect(() => {
    const el = list.current
    if (el) el.scrollTop = el.scrollHeight
  }, [lines])
  const empty = view.phase === 'ringing' ? 'Pick up: the agent speaks first.' : view.phase === 'connected' ? 'Listening...' : null
  return (
    <div className="mt-5 rounded-2xl bg-slate-950/30 p-3 text-left">
      <ol ref={list} role="log" aria-live="polite" aria-label="Call transcript" className="flex max-h-64 flex-col gap-2 overflow-y-auto text-sm">
        {lines.map((line) => (
          <li
            key={line.id}
            data-speaker={line.isAgent ? 'assistant' : 'user'}
            data-in-flight={line.inFlight || undefined}
            // Words in flight are announced once kept, as a whole line, not word by word.
            aria-hidden={line.inFlight || undefined}
            className={cn(
              'max-w-[85%] rounded-2xl px-3 py-2 leading-snug',
              line.isAgent ? 'self-start rounded-bl-sm bg-white/15 text-white' : 'self-end rounded-br-sm bg-emerald-300 text-emerald-950',
              line.inFlight && 'opacity-80',
            )}
          >
            <span className="sr-only">{line.isAgent ? 'Agent: ' : 'You: '}</span>
            {line.text}
          </li>
        ))}
      </ol>
      {lines.length === 0 && empty && <p className="py-6 text-center text-xs text-indigo-200">{empty}</p>}
    </div>
  )
}

interface Props {
  callId: string
  secret: string
  /** Tells the mockup around it what to draw (the avatar's ring, the moving bars). */
  onPhase: (phase: Phase) => void
  /** Back to the form, for another call. */
  onAgain: () => void
}

export function TestCallLive({ callId, secret, onPhase, onAgain }: Props) {
  const view = useTestCall(callId, secret)
  const seconds = useSecondsSince(view.phase === 'connected' ? view.connectedAt : null)
  const heading = useRef<HTMLParagraphElement>(null)
  useEffect(() => heading.current?.focus(), [])
  useEffect(() => onPhase(view.phase), [view.phase, onPhase])
  return (
    <div data-testid="test-call-progress" data-phase={view.phase}>
      <p ref={heading} tabIndex={-1} className="text-center text-sm font-semibold text-white focus:outline-none" data-testid="call-status">
        <span role="status">{view.phase === 'ringing' ? 'Ringing...' : view.phase === 'connected' ? 'Connected' : 'Call ended'}</span>
        {view.phase === 'connected' && (
          <>
            {' '}
            <span role="timer" className="tabular-nums">
              {formatTimer(seconds)}
            </span>
          </>
        )}
      </p>
      {view.phase === 'ended' && (view.outcome || view.seconds !== null) && (
        <p className="mt-1 text-center text-xs text-indigo-200" data-testid="call-outcome">
          {[view.outcome, view.seconds !== null ? `Duration ${formatTimer(view.seconds)}` : null].filter(Boolean).join(' · ')}
        </p>
      )}
      {view.lost && view.phase !== 'ended' && (
        <p role="alert" className="mt-2 text-center text-xs text-rose-200">
          Your phone is still ringing, but the call's progress cannot be shown here.
        </p>
      )}
      <Transcript view={view} />
      {view.phase === 'ended' && (
        <Link
          to="/register"
          className="mt-4 block w-full rounded-xl bg-emerald-400 px-4 py-3 text-center text-sm font-semibold text-emerald-950 shadow-lg transition hover:bg-emerald-300"
        >
          Sign up to place your own calls
        </Link>
      )}
      {view.phase === 'ended' && (
        <button
          type="button"
          onClick={onAgain}
          className="mt-4 w-full rounded-xl bg-white/15 px-4 py-3 text-sm font-semibold text-white transition hover:bg-white/25 focus:outline-none focus:ring-2 focus:ring-white/60"
        >
          Start another test call
        </button>
      )}
    </div>
  )
}
