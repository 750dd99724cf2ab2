/** What the landing's phone mockup shows of the visitor's test call, as a reducer over what the
 * visitor socket says: the live webhook-events and captions, and the call's state so far (on
 * each connection). The transcript itself is the shared live-transcript model. */
import { EMPTY_TRANSCRIPT, isKeptLine, transcriptReducer, type LiveTranscript } from '@/components/calls/liveTranscript'
import { parseDurationMessage } from '@/lib/format'
import { isOutcome, outcomeSentence } from '@/lib/outcomes'
import type { CallState, CaptionEvent, WebhookEvent } from '@/lib/realtime'

export type Phase = 'ringing' | 'connected' | 'ended'

export interface CallView {
  phase: Phase
  callId: string
  /** When it was answered, on this browser's clock (ms); null before. */
  connectedAt: number | null
  transcript: LiveTranscript
  /** How it ended, in words, when the server said. */
  outcome: string | null
  /** The call's length as the server settled it; null until then. */
  seconds: number | null
  /** The progress cannot be shown (the socket was refused or unreachable); the call goes on. */
  lost: boolean
}

export type CallAction =
  | { type: 'event'; event: WebhookEvent; now: number }
  | { type: 'caption'; event: CaptionEvent; now: number }
  | { type: 'state'; state: CallState; now: number }
  | { type: 'lost' }

/** A call just placed: the phone is ringing (or about to). */
export function placedCall(callId: string): CallView {
  return { phase: 'ringing', callId, connectedAt: null, transcript: EMPTY_TRANSCRIPT, outcome: null, seconds: null, lost: false }
}

const CONNECTED = 'Call connected'
/** Status messages that say how a call ended before or without a conversation. */
const ENDINGS = new Set(['Line busy', 'No answer', 'Call failed', 'Call canceled'])

/** Someone is talking, so the call was answered. */
function connect(view: CallView, at: number): CallView {
  if (view.phase !== 'ringing') return view
  return { ...view, phase: 'connected', connectedAt: view.connectedAt ?? at }
}

function onEvent(view: CallView, event: WebhookEvent, now: number): CallView {
  let next = view
  const told = typeof event.outcomeText === 'string' && event.outcomeText ? event.outcomeText : isOutcome(event.outcome) ? outcomeSentence(event.outcome) : null
  if (told) next = { ...next, outcome: told }
  else if ((event.category === 'status' && ENDINGS.has(event.message)) || event.category === 'error') next = { ...next, outcome: event.message }
  const seconds = parseDurationMessage(event.message)
  if (seconds !== null) next = { ...next, seconds }
  const kept = isKeptLine(event)
  if (event.message === CONNECTED || kept) next = connect(next, now)
  if (kept) next = { ...next, transcript: transcriptReducer(next.transcript, { type: 'kept', event }) }
  if (event.completed) next = { ...next, phase: 'ended' }
  return next
}

function onState(view: CallView, state: CallState, now: number): CallView {
  let next: CallView = { ...view, transcript: transcriptReducer(view.transcript, { type: 'stored', entries: state.lines, ended: state.finalized }) }
  if (state.answered) {
    // A socket that joined late learns when the call was really answered.
    const at = now - (state.connectedSeconds ?? 0) * 1000
    next = connect(next, at)
    if (next.phase === 'connected' && state.connectedSeconds !== null) next = { ...next, connectedAt: at }
  }
  if (state.finalized) next = { ...next, phase: 'ended' }
  return next
}

export function callReducer(view: CallView, action: CallAction): CallView {
  if (action.type === 'lost') return view.phase === 'ended' ? view : { ...view, lost: true }
  if (view.phase === 'ended') return view
  switch (action.type) {
    case 'event':
      return action.event.callId === view.callId ? onEvent(view, action.event, action.now) : view
    case 'caption':
      return action.event.callId === view.callId
        ? { ...connect(view, action.now), transcript: transcriptReducer(view.transcript, { type: 'caption', event: action.event }) }
        : view
    case 'state':
      return action.state.callId === view.callId ? onState(view, action.state, action.now) : view
  }
}
