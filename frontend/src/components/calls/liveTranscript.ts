/** The live transcript of one call, built from what the socket brings: captions of lines being
 * spoken (transcript-live, under a key), kept lines (webhook-event with the line, its key and
 * its number) and, on load, after the socket reconnects or at the end, the stored transcript. Lines are shown in the order
 * they began; a kept line replaces its captions. */
import type { components } from '@/lib/api-schema'
import type { CaptionEvent, WebhookEvent } from '@/lib/realtime'
import { stepText, type FlowStep } from '@/components/flows/api'
import type { TranscriptLine } from './api'

/** Something the agent did in the call (a tool called, a transfer, keys): an action line. */
export type CallAction = components['schemas']['CallAction']

export interface LiveLine {
  id: string
  isAgent: boolean
  text: string
  /** When the line began (ISO 8601). */
  timestamp: string
  /** Still being spoken: words may be added. */
  inFlight: boolean
  /** An action line (not words said): what the agent did, with its arguments, status and
   * latency. A started action's line becomes its result's when that comes. */
  action?: CallAction
  /** A node change of a call on a conversation flow (docs/flows.md): where the call moved and
   * why, marked between the lines. */
  step?: FlowStep
}

export interface LiveTranscript {
  lines: Record<string, LiveLine>
  /** Keys whose kept form has arrived: late captions for them are ignored. */
  kept: Record<string, true>
  /** The line of each action started and not finished yet, by the action's kind and name. */
  open?: Record<string, string>
}

export type TranscriptAction =
  | { type: 'caption'; event: CaptionEvent }
  | { type: 'kept'; event: WebhookEvent }
  | { type: 'action'; event: WebhookEvent }
  | { type: 'flow'; event: WebhookEvent }
  | { type: 'stored'; entries: TranscriptLine[]; ended?: boolean }
  | { type: 'resync'; entries: TranscriptLine[] }
  | { type: 'clear' }

export const EMPTY_TRANSCRIPT: LiveTranscript = { lines: {}, kept: {} }

const storedId = (seq: number) => `line-${seq}`
const captionId = (key: string) => `caption-${key}`

/** Whether a webhook-event carries a kept transcript line. */
export function isKeptLine(event: WebhookEvent): boolean {
  return event.final === true && typeof event.seq === 'number' && typeof event.text === 'string' && !!event.speaker
}

export function transcriptReducer(state: LiveTranscript, action: TranscriptAction): LiveTranscript {
  switch (action.type) {
    case 'caption': {
      const { key, text, at, speaker } = action.event
      if (state.kept[key]) return state
      const line: LiveLine = { id: captionId(key), isAgent: speaker === 'assistant', text, timestamp: at, inFlight: true }
      return { ...state, lines: { ...state.lines, [line.id]: line } }
    }
    case 'kept': {
      const { key, seq, text, at, speaker } = action.event
      if (typeof seq !== 'number' || text === undefined) return state
      const lines = { ...state.lines }
      if (key) delete lines[captionId(key)]
      const timestamp = at ?? lines[storedId(seq)]?.timestamp ?? new Date().toISOString()
      lines[storedId(seq)] = { id: storedId(seq), isAgent: speaker === 'assistant', text, timestamp, inFlight: false }
      return { lines, kept: key ? { ...state.kept, [key]: true } : state.kept }
    }
    case 'action':
      return withAction(state, action.event)
    case 'flow':
      return withStep(state, action.event)
    case 'stored': {
      // The stored transcript is the truth for kept lines; captions still in flight stay
      // while the call goes on, and action lines (not in the transcript) always.
      const lines: Record<string, LiveLine> = {}
      for (const line of Object.values(state.lines)) if (line.action || line.step || (!action.ended && line.inFlight)) lines[line.id] = line
      for (const entry of action.entries) {
        const id = storedId(entry.seq)
        lines[id] = { id, isAgent: entry.user === 'assistant', text: entry.text, timestamp: entry.created_at, inFlight: false }
      }
      return { ...state, lines }
    }
    case 'resync': {
      // After the socket was away: the stored lines fill in what it missed. Kept lines that
      // came after the snapshot stay; captions go, since the kept form of a line spoken
      // meanwhile never came to replace them (captions still being spoken come again).
      const lines: Record<string, LiveLine> = {}
      for (const line of Object.values(state.lines)) if (!line.inFlight || line.action || line.step) lines[line.id] = line
      for (const entry of action.entries) {
        const id = storedId(entry.seq)
        lines[id] = { id, isAgent: entry.user === 'assistant', text: entry.text, timestamp: entry.created_at, inFlight: false }
      }
      return { ...state, lines }
    }
    case 'clear':
      return EMPTY_TRANSCRIPT
  }
}

/** An action line: a new one when an action starts (or comes without a start), the started
 * one's when its result comes. */
function withAction(state: LiveTranscript, event: WebhookEvent): LiveTranscript {
  const action = event.action
  if (!action) return state
  const slot = `${action.kind}:${action.name}`
  const open = { ...state.open }
  const id = open[slot] ?? `action-${Object.keys(state.lines).length}-${slot}`
  if (action.status === 'started') open[slot] = id
  else delete open[slot]
  const timestamp = state.lines[id]?.timestamp ?? event.at ?? new Date().toISOString()
  const line: LiveLine = { id, isAgent: true, text: event.message, timestamp, inFlight: false, action }
  return { ...state, lines: { ...state.lines, [id]: line }, open }
}

/** A node change's line, once (a step sent again after a reconnect replaces its own). */
function withStep(state: LiveTranscript, event: WebhookEvent): LiveTranscript {
  const step = event.step
  if (!step) return state
  const id = `step-${step.at ?? event.at ?? ''}-${step.node_id}`
  const timestamp = state.lines[id]?.timestamp ?? event.at ?? new Date().toISOString()
  const line: LiveLine = { id, isAgent: true, text: stepText(step), timestamp, inFlight: false, step }
  return { ...state, lines: { ...state.lines, [id]: line } }
}

/** The lines in the order they began (ties: kept lines in their order, then captions). */
export function orderedLines(state: LiveTranscript): LiveLine[] {
  return Object.values(state.lines).sort((a, b) => {
    const byTime = Date.parse(a.timestamp) - Date.parse(b.timestamp)
    if (byTime !== 0) return byTime
    return a.id.localeCompare(b.id, undefined, { numeric: true })
  })
}
