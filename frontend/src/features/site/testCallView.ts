/** What the landing's phone mockup shows of the visitor's test call, as a reducer over what the
 * visitor socket says: the live webhook-events and the call's state so far (on each connection). */
import { parseDurationMessage } from '@/lib/format'
import type { CallLine, CallState, WebhookEvent } from '@/lib/realtime'

export type Phase = 'ringing' | 'connected' | 'ended'

export interface CallView {
  phase: Phase
  callId: string
  /** When it was answered, on this browser's clock (ms); null before. */
  connectedAt: number | null
  lines: CallLine[]
  /** How it ended, in words, when the server said. */
  outcome: string | null
  /** The call's length as the server settled it; null until then. */
  seconds: number | null
  /** The progress cannot be shown (the socket was refused or unreachable); the call goes on. */
  lost: boolean
}

export type CallAction =
  | { type: 'event'; event: WebhookEvent & Record<string, unknown>; now: number }
  | { type: 'state'; state: CallState; now: number }
  | { type: 'lost' }

/** A call just placed: the phone is ringing (or about to). */
export function placedCall(callId: string): CallView {
  return { phase: 'ringing', callId, connectedAt: null, lines: [], outcome: null, seconds: null, lost: false }
}

const CONNECTED = 'Call connected'
/** Status messages that say how a call ended before or without a conversation. */
const ENDINGS = new Set(['Line busy', 'No answer', 'Call failed', 'Call canceled'])

/** Adds or replaces (same seq) lines, kept in order. */
function mergeLines(lines: CallLine[], more: CallLine[]): CallLine[] {
  if (more.length === 0) return lines
  const bySeq = new Map(lines.map((l) => [l.seq, l]))
  for (const line of more) bySeq.set(line.seq, line)
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq)
}

function lineOf(event: Record<string, unknown>): CallLine | null {
  const { seq, speaker, text } = event
  if (typeof seq !== 'number' || typeof text !== 'string' || (speaker !== 'assistant' && speaker !== 'user')) return null
  return { seq, speaker, text }
}

function connect(view: CallView, at: number): CallView {
  if (view.phase !== 'ringing') return view
  return { ...view, phase: 'connected', connectedAt: view.connectedAt ?? at }
}

function onEvent(view: CallView, event: WebhookEvent & Record<string, unknown>, now: number): CallView {
  let next = view
  if (typeof event.outcome === 'string' && event.outcome) next = { ...next, outcome: event.outcome }
  else if ((event.category === 'status' && ENDINGS.has(event.message)) || event.category === 'error') next = { ...next, outcome: event.message }
  const seconds = parseDurationMessage(event.message)
  if (seconds !== null) next = { ...next, seconds }
  const line = lineOf(event)
  if (event.message === CONNECTED || line) next = connect(next, now)
  if (line) next = { ...next, lines: mergeLines(next.lines, [line]) }
  if (event.completed) next = { ...next, phase: 'ended' }
  return next
}

function onState(view: CallView, state: CallState, now: number): CallView {
  let next: CallView = { ...view, lines: mergeLines(view.lines, state.lines) }
  if (state.answered) {
    next = connect(next, now - (state.connectedSeconds ?? 0) * 1000)
    // A socket that joined late learns when the call was really answered.
    if (next.phase === 'connected' && state.connectedSeconds !== null) next = { ...next, connectedAt: now - state.connectedSeconds * 1000 }
  }
  if (state.finalized) next = { ...next, phase: 'ended' }
  return next
}

export function callReducer(view: CallView, action: CallAction): CallView {
  switch (action.type) {
    case 'lost':
      return view.phase === 'ended' ? view : { ...view, lost: true }
    case 'event':
      return view.phase === 'ended' || action.event.callId !== view.callId ? view : onEvent(view, action.event, action.now)
    case 'state':
      return view.phase === 'ended' || action.state.callId !== view.callId ? view : onState(view, action.state, action.now)
  }
}
