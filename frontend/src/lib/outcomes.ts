/** How a call ended and who answered, in words and colours: the one place the web app says it.
 * The names are the backend's (`CallOutcome`, `AnsweredBy`, `CallStatus` in the generated API
 * types): a name added or dropped there fails to compile here. The sentences' backend twin is
 * `src/callwright/calls/outcomes.py` (the live closing event's `outcomeText`); keep them in step. */
import type { components } from './api-schema'

export type Outcome = components['schemas']['CallOutcome']
export type AnsweredBy = components['schemas']['AnsweredBy']
export type CallStatus = components['schemas']['CallStatus']
/** The badge colours: the spec's green, yellow and red for the values it names, others their own. */
export type Tone = 'green' | 'yellow' | 'red' | 'blue' | 'slate' | 'violet' | 'orange' | 'cyan' | 'teal' | 'lime' | 'fuchsia'

interface OutcomeStyle {
  label: string
  tone: Tone
  /** For charts. */
  color: string
  sentence: string
}

export const OUTCOMES: Record<Outcome, OutcomeStyle> = {
  completed: { label: 'Completed', tone: 'green', color: '#10b981', sentence: 'The call has completed' },
  'no-answer': { label: 'No answer', tone: 'yellow', color: '#f59e0b', sentence: 'No answer' },
  failed: { label: 'Failed', tone: 'red', color: '#f43f5e', sentence: 'The call failed' },
  voicemail: { label: 'Voicemail', tone: 'violet', color: '#8b5cf6', sentence: 'Voicemail reached' },
  busy: { label: 'Busy', tone: 'orange', color: '#f97316', sentence: 'The line was busy' },
  stopped: { label: 'Stopped', tone: 'cyan', color: '#06b6d4', sentence: 'You stopped the call' },
  'time-limit': { label: 'Time limit', tone: 'teal', color: '#14b8a6', sentence: 'The call reached its time limit' },
  'callee-hung-up': { label: 'Callee hung up', tone: 'lime', color: '#84cc16', sentence: 'The callee hung up' },
  'cut-by-fault': { label: 'Cut by fault', tone: 'fuchsia', color: '#d946ef', sentence: 'The call was cut off by a fault' },
  transferred: { label: 'Transferred', tone: 'blue', color: '#0d9488', sentence: 'The call was transferred to a person' },
}

export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && Object.hasOwn(OUTCOMES, value)
}

/** What happened, for the person who placed the call; a failure says its reason. */
export function outcomeSentence(outcome: string | null | undefined, error?: string | null): string {
  if (!isOutcome(outcome)) return 'The call has ended'
  const words = OUTCOMES[outcome].sentence
  return outcome === 'failed' && error ? `${words}: ${error.replace(/\.$/, '')}` : words
}

/** The live screen's toast when a call ends: the closing event's sentence (the server's, with a
 * failure's reason), else the outcome's words; without either, the spec's "completed" text. */
export function closingToast(event: { outcome?: string | null; outcomeText?: string | null }): string {
  const words = event.outcomeText || (isOutcome(event.outcome) ? outcomeSentence(event.outcome) : 'The call has completed')
  return `${words}. You can now start a new call.`
}

const ANSWERED_BY: Record<AnsweredBy, string> = { human: 'A person', voicemail: 'Voicemail', unknown: 'Not known' }

/** Who picked up, in words ("Not answered" before an answer). */
export function answeredByLabel(value: string | null | undefined): string {
  return value && Object.hasOwn(ANSWERED_BY, value) ? ANSWERED_BY[value as AnsweredBy] : 'Not answered'
}

/** The carrier's call statuses (the admin's Call States chart): each its own colour, the same as
 * the outcome it means where it means one (busy, no-answer, failed; canceled is a stop). */
export const STATUS_COLORS: Record<string, string> = {
  completed: OUTCOMES.completed.color,
  'no-answer': OUTCOMES['no-answer'].color,
  busy: OUTCOMES.busy.color,
  failed: OUTCOMES.failed.color,
  canceled: OUTCOMES.stopped.color,
  queued: '#facc15',
  ringing: '#93c5fd',
  'in-progress': '#2563eb',
  unknown: '#94a3b8',
} satisfies Record<CallStatus | 'unknown', string>

/** A status's chart colour; a value outside the vocabulary gets the unknown grey. */
export function statusColor(status: string): string {
  return Object.hasOwn(STATUS_COLORS, status) ? STATUS_COLORS[status] : STATUS_COLORS.unknown
}

/** Colours for charts of figures that are not outcomes (calls, minutes, money, recordings):
 * none is an outcome's colour, so a colour in any chart means one outcome only. */
export const CHART_COLORS = {
  calls: '#6366f1',
  minutes: '#0ea5e9',
  average: '#64748b',
  money: '#ec4899',
  recorded: '#1e40af',
  notRecorded: '#cbd5e1',
  hours: '#a16207',
  durations: '#7c2d12',
} as const

/** Stacked bar series, one per outcome that occurs, in the vocabulary's order, each in its
 * outcome's colour: `counts[i]` is the i-th bar's calls by outcome. */
export function outcomeSeries(counts: Partial<Record<string, number>>[]): { outcome: Outcome; label: string; color: string; data: number[] }[] {
  return (Object.keys(OUTCOMES) as Outcome[])
    .filter((outcome) => counts.some((c) => (c[outcome] ?? 0) > 0))
    .map((outcome) => ({ outcome, label: OUTCOMES[outcome].label, color: OUTCOMES[outcome].color, data: counts.map((c) => c[outcome] ?? 0) }))
}
